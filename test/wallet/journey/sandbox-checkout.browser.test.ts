import { describe, expect, it } from 'vitest';
import { browserAvailable, usePlatformAndBrowser } from '../../helpers/browser.ts';
import { balance, initiate, verify, walletPartner } from '../helpers.ts';

describe.runIf(browserAvailable)('sandbox checkout page in headless Chromium', () => {
  const ctx = usePlatformAndBrowser();

  it('pays by clicking Pay: the wallet is credited and the buyer lands on the return page', async () => {
    const s = await walletPartner(ctx.p);
    const t = await initiate(s, 30);
    const page = await ctx.browser.newPage();
    await page.goto(t.checkout_url);
    expect(await page.locator('.amount').innerText()).toBe('GHS 30.00');
    await Promise.all([page.waitForURL(/\/checkout\/complete/), page.click('#pay')]);
    expect(await page.locator('h1').innerText()).toBe('Thank you');
    expect(await balance(s)).toBe(30);
    expect((await verify(s, t.client_reference)).body.data.state).toBe('already_credited');
    await page.goto(t.checkout_url);
    expect(await page.locator('#outcome').innerText()).toContain('paid');
    await page.close();
  });

  it('declines by clicking Decline: nothing is credited and verify stays pending', async () => {
    const s = await walletPartner(ctx.p);
    const t = await initiate(s, 45);
    const page = await ctx.browser.newPage();
    await page.goto(t.checkout_url);
    await Promise.all([page.waitForURL(/\/checkout\/complete/), page.click('#decline')]);
    expect((await verify(s, t.client_reference)).body.data).toEqual({
      credited: false,
      state: 'pending',
      verification_status: 'Declined',
    });
    expect(await balance(s)).toBe(0);
    await page.close();
  });
});
