import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  browserAvailable,
  contrastRatios,
  horizontalOverflow,
  usePlatformAndBrowser,
  VIEWPORTS,
} from '../../helpers/browser.ts';
import { createPartner } from '../../helpers/harness.ts';
import { orderBody as saleBody, placed, SALE_SCOPES, shop } from '../../catalog/helpers.ts';
import { orderBody as deliveryBody } from '../../delivery/fixtures.ts';
import { initiate, WALLET_SCOPES } from '../../wallet/helpers.ts';

/** Where the screenshots go, to be looked at: a page can pass every assertion and still look wrong. */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'partner-platform-pages');

const ghs = (amount: number) => `GHS ${amount.toFixed(2)}`;

interface PublicPage {
  name: string;
  url: () => string;
  /** What this page must show or do beyond the checks every page gets. */
  check: (page: Page) => Promise<void>;
}

describe.runIf(browserAvailable)(
  'public pages at phone and laptop widths in headless Chromium, JavaScript off',
  () => {
    const ctx = usePlatformAndBrowser();
    const urls: Record<string, string> = {};
    let sale: any;

    beforeAll(async () => {
      const { p } = ctx;
      const courier = await createPartner(p);
      const created = await courier.client.send<any>('POST', '/api/v1/delivery/orders.create', {
        body: deliveryBody({ item: 'Box of shea butter' }),
      });
      const orderId = created.body.data.order_details.order_id;
      await p.admin('POST', `/delivery/orders/${orderId}/status`, { status: 'accepted' });
      const details = await courier.client.send<any>('POST', '/api/v1/delivery/orders.get', {
        body: { order_id: orderId },
      });
      urls.tracking = p.url + new URL(details.body.data.tracking_url).pathname;

      const reseller = await createPartner(p, {
        environment: 'production',
        scopes: [...SALE_SCOPES, ...WALLET_SCOPES],
      });
      const b = await shop(p);
      const [first, second] = b.product.variants.map((v: { variant_id: string }) => v.variant_id);
      const items = [
        { product_id: b.productId, variant_id: first, quantity: 2 },
        { product_id: b.productId, variant_id: second, quantity: 1 },
      ];
      sale = await placed(
        reseller,
        saleBody(b, { payment_method: 'online', reseller_markup_ghs: 15, items }),
      );
      urls.sale = sale.checkout_url;
      urls.topup = (await initiate(reseller, 250)).checkout_url;
    });

    const pages: PublicPage[] = [
      {
        name: 'landing',
        url: () => `${ctx.p.url}/`,
        async check(page) {
          const links = await page
            .locator('main a')
            .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
          expect(links).toEqual(expect.arrayContaining(['/docs', '/openapi.json', '/healthz']));
          await page.keyboard.press('Tab');
          expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(
            '/docs',
          );
        },
      },
      {
        name: 'docs',
        url: () => `${ctx.p.url}/docs`,
        async check(page) {
          const [baseUrl] = await contrastRatios(page, 'header code');
          expect(baseUrl!.text).toBe(ctx.p.url);
          expect(baseUrl!.ratio).toBeGreaterThanOrEqual(4.5);
          // Keyboard users skip the long operation list in one key press.
          await page.keyboard.press('Tab');
          expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(
            '#content',
          );
        },
      },
      {
        name: 'tracking',
        url: () => urls.tracking!,
        async check(page) {
          expect(
            await page.evaluate(() =>
              document.querySelector('meta[http-equiv="refresh"]')?.getAttribute('content'),
            ),
          ).toBe('30');
          expect(await page.locator('main').innerText()).toMatch(/refreshes every 30 seconds/);
        },
      },
      {
        name: 'sale-checkout',
        url: () => urls.sale!,
        async check(page) {
          const rows = await page
            .locator('table.bill tr')
            .evaluateAll((trs) =>
              trs.map((tr) => (tr as HTMLElement).innerText.replace(/\s+/g, ' ').trim()),
            );
          expect(rows).toEqual([
            `Handwoven kente stole (Gold and green) 2 × GHS 180.00 GHS 360.00`,
            `Handwoven kente stole (Blue and silver) GHS 195.50`,
            `Delivery fee ${ghs(sale.delivery_fee_ghs)}`,
            `Reseller markup GHS 15.00`,
            `Total ${ghs(sale.total_ghs)}`,
          ]);
          expect(sale.total_ghs).toBe(360 + 195.5 + sale.delivery_fee_ghs + 15);
          expect(await page.locator('main').innerText()).toContain(sale.reference);
          await page.keyboard.press('Tab');
          expect(await page.evaluate(() => document.activeElement?.id)).toBe('pay');
        },
      },
      {
        name: 'topup-checkout',
        url: () => urls.topup!,
        async check(page) {
          expect(await page.locator('.amount').innerText()).toBe('GHS 250.00');
          expect(await page.locator('table.bill').count()).toBe(0);
        },
      },
    ];

    for (const viewport of VIEWPORTS) {
      for (const spec of pages) {
        it(`${spec.name} at ${viewport.width} px: fits the width, readable, self-contained`, async () => {
          const context = await ctx.browser.newContext({ javaScriptEnabled: false, viewport });
          const page = await context.newPage();
          const requests: string[] = [];
          page.on('request', (r) => requests.push(r.url()));
          const violations: string[] = [];
          page.on(
            'console',
            (m) => m.text().includes('Content Security Policy') && violations.push(m.text()),
          );
          const url = spec.url();
          expect((await page.goto(url))?.status()).toBe(200);
          mkdirSync(SHOTS, { recursive: true });
          await page.screenshot({
            path: join(SHOTS, `${spec.name}-${viewport.width}.png`),
            fullPage: spec.name !== 'docs',
          });
          expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
          const unreadable = (await contrastRatios(page, 'body *')).filter((t) => t.ratio < 4.5);
          expect(unreadable).toEqual([]);
          await spec.check(page);
          // Self-contained: the page, and at most our own static files (the reference's stylesheet,
          // the live tracking page's stylesheet: its script does not run here), nothing from elsewhere.
          expect(requests.filter((r) => !r.startsWith(`${ctx.p.url}/assets/`))).toEqual([url]);
          expect(
            requests.filter((r) => r.startsWith(`${ctx.p.url}/assets/`)).length,
          ).toBeLessThanOrEqual(['docs', 'tracking'].includes(spec.name) ? 1 : 0);
          expect(violations).toEqual([]);
          await context.close();
        });
      }
    }
  },
);
