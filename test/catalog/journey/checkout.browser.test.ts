import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser } from '../../helpers/browser.ts';
import {
  addKey,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { getSale, orderBody, placed, SALE_SCOPES, shop, stockOf, verifySale } from '../helpers.ts';

describe.runIf(browserAvailable)(
  'a prepaid safe-catalog order through the sandbox checkout in headless Chromium',
  () => {
    let p: TestPlatform;
    let browser: Browser;
    let s: PartnerSetup;
    beforeAll(async () => {
      [p, browser] = await Promise.all([startPlatform(), launchBrowser()]);
      const partner = (await p.admin('POST', '/partners', { name: 'Reseller' })).body;
      await p.admin('PATCH', `/partners/${partner.partner_id}`, { production_active: true });
      // The app's return page (here the server's own thank-you page, with a query of the app's own).
      const app = (
        await p.admin('POST', `/partners/${partner.partner_id}/apps`, {
          name: 'Shop',
          return_url: `${p.url}/checkout/complete?shop=kente`,
        })
      ).body;
      s = await addKey(
        p,
        { partnerId: partner.partner_id, appId: app.app_id },
        { environment: 'production', scopes: SALE_SCOPES },
      );
    });
    afterAll(async () => {
      await browser?.close();
      await p?.close();
    });

    it('pays by clicking Pay: back on the app return page, verify confirms and settles, the delivery is dispatched', async () => {
      const b = await shop(p);
      const sale = await placed(
        s,
        orderBody(b, { payment_method: 'online', reseller_markup_ghs: 15 }),
      );
      const page = await browser.newPage();
      await page.goto(sale.checkout_url);
      expect(await page.locator('.amount').innerText()).toBe(`GHS ${sale.total_ghs.toFixed(2)}`);
      expect(await page.locator('main').innerText()).toContain(sale.reference);
      await Promise.all([page.waitForURL(/\/checkout\/complete/), page.click('#pay')]);
      const back = new URL(page.url());
      expect([back.searchParams.get('shop'), back.searchParams.get('sale_id')]).toEqual([
        'kente',
        sale.sale_id,
      ]);
      expect(await page.locator('h1').innerText()).toBe('Thank you');
      expect((await verifySale(s, sale.sale_id)).body.data).toEqual({
        sale_id: sale.sale_id,
        state: 'confirmed',
        settled: true,
        payment_status: 'paid',
        delivery_status: 'placed',
      });
      const got = (await getSale(s, { sale_id: sale.sale_id })).body.data;
      expect(got).toMatchObject({
        state: 'confirmed',
        markup_ghs: 15,
        checkout_url: null,
        delivery: { status: 'placed' },
      });
      // The tracking page of the dispatched delivery opens for the buyer.
      await page.goto(got.delivery.tracking_url);
      expect(await page.content()).toContain('4567');
      await page.goto(sale.checkout_url);
      expect(await page.locator('#outcome').innerText()).toContain('paid');
      await page.close();
    });

    it('declines by clicking Decline: the sale fails and its stock comes back', async () => {
      const b = await shop(p);
      const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
      expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 1 });
      const page = await browser.newPage();
      await page.goto(sale.checkout_url);
      await Promise.all([page.waitForURL(/\/checkout\/complete/), page.click('#decline')]);
      expect((await verifySale(s, sale.sale_id)).body.data).toMatchObject({
        state: 'failed',
        settled: false,
        payment_status: 'declined',
      });
      expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 0 });
      await page.close();
    });
  },
);
