import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCRA_CENTRAL, EAST_LEGON, orderBody } from '../../delivery/fixtures.ts';
import { partnerOfMember } from '../../helpers/accounts-read.ts';
import {
  browserAvailable,
  horizontalOverflow,
  usePlatformAndBrowser,
  VIEWPORTS,
  watchPage,
} from '../../helpers/browser.ts';
import { addKey } from '../../helpers/harness.ts';
import { ROOT } from '../../helpers/process.ts';
import { newEmail, PASSWORD, verifiedOwner } from '../../helpers/web.ts';

/** Screenshots to look at (gitignored). */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'wallet');

const ghs = (pesewas: number) =>
  `GHS ${pesewas < 0 ? '-' : ''}${Math.floor(Math.abs(pesewas) / 100)}.${String(Math.abs(pesewas) % 100).padStart(2, '0')}`;

describe.runIf(browserAvailable)(
  'wallet end to end in headless Chromium: top up on the sandbox checkout, spend through the SDK, read the statement and the overview charts',
  () => {
    const env = usePlatformAndBrowser();

    it('dashboard top-up → Pay → wallet-funded order with a production key → the debit on the wallet page with its running balance', async () => {
      const { p, browser } = env;
      // Production access and a production key with the money scopes, set up through the operator API (the console journey covers doing it by hand).
      const email = newEmail('wallet');
      const { web } = await verifiedOwner(p, email, 'Ama Textiles');
      const partnerId = await partnerOfMember(p, email);
      await p.admin('PATCH', `/partners/${partnerId}`, { production_active: true });
      const created = await web.submit('/dashboard/apps', '/dashboard/apps', { name: 'Shop app' });
      const appId = /<code>(app_[0-9A-Z]{26})<\/code>/.exec(created.text)![1]!;
      const key = await addKey(
        p,
        { partnerId, appId },
        {
          environment: 'production',
          scopes: ['delivery:read', 'delivery:write', 'delivery:wallet:spend'],
        },
      );

      const page = await (await browser.newContext({ viewport: VIEWPORTS[0] })).newPage();
      const csp = watchPage(page).violations;
      await page.goto(`${p.url}/sign-in`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page
        .getByRole('navigation', { name: 'Dashboard' })
        .getByRole('link', { name: 'Wallet' })
        .click();
      await expect.poll(() => page.locator('#balance').textContent()).toBe('GHS 0.00');

      // A clear sentence for an amount out of range, then a top-up through the sandbox checkout.
      await page.getByLabel('Amount (GHS)').fill('12');
      await page.getByRole('button', { name: 'Continue to payment' }).click();
      await expect
        .poll(() => page.locator('#topup-problem').textContent())
        .toContain('The minimum top-up is GHS 30.00.');
      await page.getByLabel('Amount (GHS)').fill('250.75');
      await page.getByRole('button', { name: 'Continue to payment' }).click();
      await page.waitForURL(/\/sandbox\/checkout\//);
      await page.locator('#pay').click();
      await page.waitForURL(/\/dashboard\/wallet\/topups\/serviceD_WA/);
      expect(await page.locator('#topup-state').textContent()).toContain(
        'GHS 250.75 was added to your wallet',
      );

      // A wallet-funded production order through the SDK.
      const body = orderBody({ payment: { payer: 'partner' } });
      body.pickup.coordinates = ACCRA_CENTRAL;
      body.delivery.coordinates = EAST_LEGON;
      const order = await key.client.send<any>('POST', '/api/v1/delivery/orders.create', { body });
      expect(order.status, JSON.stringify(order.body)).toBe(201);
      const fee = Number(
        (
          await p.app.platform.db.query<{ fee_pesewas: number }>(
            'select fee_pesewas from delivery_orders where id = $1',
            [order.body.data.order_details.order_id],
          )
        )[0]!.fee_pesewas,
      );
      expect(fee).toBeGreaterThan(0);

      await page
        .getByRole('navigation', { name: 'Dashboard' })
        .getByRole('link', { name: 'Wallet' })
        .click();
      const rows = page.locator('#entries tbody tr');
      await expect.poll(() => rows.count()).toBe(2);
      const newest = await rows.nth(0).locator('td').allTextContents();
      expect(newest.slice(1, 2)).toEqual(['Delivery fee']);
      expect(newest.slice(3)).toEqual([ghs(-fee), ghs(25075 - fee)]);
      expect((await rows.nth(1).locator('td').allTextContents()).slice(3)).toEqual([
        `+${ghs(25075)}`,
        ghs(25075),
      ]);
      expect(await page.locator('#balance').textContent()).toBe(ghs(25075 - fee));
      expect(await page.locator('#topups .badge').first().textContent()).toBe('credited');

      // The chart is drawn (a canvas from our own uPlot asset), its table is there, and the page fits both widths.
      mkdirSync(SHOTS, { recursive: true });
      for (const v of VIEWPORTS) {
        await page.setViewportSize(v);
        await expect.poll(() => page.locator('#wallet-chart canvas').count()).toBe(1);
        await page.waitForTimeout(200); // the chart follows the width after a short pause
        expect(
          await horizontalOverflow(page),
          `wallet at ${v.width} px scrolls sideways`,
        ).toBeLessThanOrEqual(0);
        await page.screenshot({ path: join(SHOTS, `wallet-${v.width}.png`), fullPage: true });
      }
      expect(await page.locator('#daily-table tbody tr').count()).toBe(30);
      const scripts = await page
        .locator('script')
        .evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).src));
      expect(scripts.every((s) => s.startsWith(`${p.url}/assets/`))).toBe(true);

      // The overview's four daily charts (same script) are drawn, with today's order and fee in their tables.
      await page.goto(`${p.url}/dashboard`);
      for (const v of VIEWPORTS) {
        await page.setViewportSize(v);
        await expect.poll(() => page.locator('.daily-chart canvas').count()).toBe(4);
        await page.waitForTimeout(200);
        expect(
          await horizontalOverflow(page),
          `overview at ${v.width} px scrolls sideways`,
        ).toBeLessThanOrEqual(0);
        await page.screenshot({ path: join(SHOTS, `overview-${v.width}.png`), fullPage: true });
      }
      expect(
        await page.locator('#orders-chart-table tbody tr').last().locator('td').allTextContents(),
      ).toEqual([new Date().toISOString().slice(0, 10), '1']);
      expect(
        await page.locator('#fees-chart-table tbody tr').last().locator('td').nth(1).textContent(),
      ).toBe(ghs(fee));
      expect(await page.locator('#orders-chart').getAttribute('role')).toBe('img');
      expect(csp).toEqual([]);
    }, 60_000);
  },
);
