import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { partnerOfMember } from '../../helpers/accounts-read.ts';
import {
  browserAvailable,
  horizontalOverflow,
  usePlatformAndBrowser,
  VIEWPORTS,
  watchPage,
} from '../../helpers/browser.ts';
import { ROOT } from '../../helpers/process.ts';
import { newEmail, PASSWORD, verifiedOwner } from '../../helpers/web.ts';
import { HOUR, settleSale } from '../../payouts/helpers.ts';

/** Screenshots to look at (gitignored). */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'dashboard');

describe.runIf(browserAvailable)(
  'dashboard payouts in headless Chromium at 390 and 1280 px',
  () => {
    const env = usePlatformAndBrowser();

    it('shows the markup and sets the destination with the password, without sideways scrolling or CSP violations', async () => {
      const { p, browser } = env;
      const email = newEmail('payouts');
      await verifiedOwner(p, email, 'Ama Textiles');
      const partnerId = await partnerOfMember(p, email);
      await settleSale(p, `partner_markup_payable:${partnerId}`, 4250, Date.now() - 2 * HOUR);

      const page = await (await browser.newContext({ viewport: VIEWPORTS[0] })).newPage();
      const csp = watchPage(page).violations;
      await page.goto(`${p.url}/sign-in`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page
        .getByRole('navigation', { name: 'Dashboard' })
        .getByRole('link', { name: 'Payouts' })
        .click();
      await expect.poll(() => page.locator('#earned').textContent()).toBe('GHS 42.50');
      expect(await page.locator('#pending').textContent()).toContain('GHS 42.50');

      // Only the chosen kind's fields show.
      expect(await page.getByLabel('Account number').isVisible()).toBe(false);
      await page.getByLabel('Paid to').selectOption('bank');
      expect([
        await page.getByLabel('Account number').isVisible(),
        await page.getByLabel('Wallet number').isVisible(),
      ]).toEqual([true, false]);
      await page.getByLabel('Paid to').selectOption('mobile_money');
      await page.getByLabel('Network').selectOption('telecel');
      await page.getByLabel('Wallet number').fill('055 123 4567');
      await page.getByLabel('Registered name').fill('Ama Serwaa');
      await page.getByLabel('Your password').fill(PASSWORD);
      await page.getByLabel('Your password').press('Enter');
      await expect.poll(() => page.locator('#destination').textContent()).toContain('•••567');
      expect(await page.locator('#destination').textContent()).toContain('wait for our approval');
      mkdirSync(SHOTS, { recursive: true });
      for (const v of VIEWPORTS) {
        await page.setViewportSize(v);
        expect(await horizontalOverflow(page), `payouts at ${v.width} px`).toBe(0);
        await page.screenshot({ path: join(SHOTS, `payouts-${v.width}.png`), fullPage: true });
      }
      expect(csp).toEqual([]);
    });
  },
);
