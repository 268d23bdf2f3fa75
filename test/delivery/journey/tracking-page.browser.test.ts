import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserAvailable, usePlatformAndBrowser } from '../../helpers/browser.ts';
import { createPartner } from '../../helpers/harness.ts';
import { orderBody } from '../fixtures.ts';

describe.runIf(browserAvailable)('tracking page in headless Chromium', () => {
  const ctx = usePlatformAndBrowser();

  it('renders on a phone-sized screen with JavaScript off and no outside requests', async () => {
    const s = await createPartner(ctx.p);
    const created = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
      body: orderBody({ item: 'Box of shea butter' }),
    });
    const id = created.body.data.order_details.order_id;
    await ctx.p.admin('POST', `/delivery/orders/${id}/status`, { status: 'accepted' });
    await ctx.p.admin('POST', `/delivery/orders/${id}/status`, { status: 'pickedUp' });
    const details = await s.client.send<any>('POST', '/api/v1/delivery/orders.get', {
      body: { order_id: id },
    });
    const url = ctx.p.url + new URL(details.body.data.tracking_url).pathname;

    const context = await ctx.browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    const text = await page.locator('main').innerText();
    expect(text).toContain('Box of shea butter');
    expect(text).toContain('ending in 4567');
    expect(text).toMatch(/picked up/i);
    expect(text).not.toContain('Oxford Street');
    expect(await page.locator('li.done').count()).toBe(3);
    // The page and its own stylesheet only: no script runs, nothing from elsewhere.
    expect(requests.filter((r) => r !== url).map((r) => new URL(r).pathname)).toEqual([
      expect.stringMatching(/^\/assets\/tracking\.[0-9a-f]{12}\.css$/),
    ]);
    expect(await page.locator('main').innerText()).toContain('It refreshes every 30 seconds.');
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/tracking-page.png', fullPage: true });
    await context.close();
  });
});
