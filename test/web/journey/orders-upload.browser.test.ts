import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  browserAvailable,
  usePlatformAndBrowser,
  VIEWPORTS,
  checkPage,
} from '../../helpers/browser.ts';
import { ROOT } from '../../helpers/process.ts';
import { SESSION_COOKIE as SESSION_COOKIE_NAME } from '../../../src/web/dashboard/kit.ts';
import { partnerDashboard } from '../../helpers/web.ts';

/** Screenshots to look at (gitignored). */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'orders-upload');

const HEADER =
  'order_reference,customer_name,customer_phone,delivery_address,delivery_city,delivery_region,delivery_lat,delivery_lng,item,pickup_contact_person,pickup_contact_phone,pickup_lat,pickup_lng';
const row = (ref: string, phone = '024 123 4567', lat = '5.556') =>
  `${ref},Ama Mensah,${phone},"12 Oxford Street, Osu",Accra,Greater Accra,${lat},-0.182,A long description of two pairs of sandals,Kofi Boateng,0201234567,5.549,-0.209`;

describe.runIf(browserAvailable)(
  'journey: upload a CSV of orders from the dashboard in Chromium',
  () => {
    const env = usePlatformAndBrowser();

    /** A browser context signed in as the owner (the session made over HTTP). */
    async function signedIn(
      cookie: string,
      options: { width: number; height: number; javaScriptEnabled?: boolean },
    ): Promise<BrowserContext> {
      const context = await env.browser.newContext({
        viewport: { width: options.width, height: options.height },
        javaScriptEnabled: options.javaScriptEnabled ?? true,
      });
      await context.addCookies([{ name: SESSION_COOKIE_NAME, value: cookie, url: env.p.url }]);
      return context;
    }

    it('chooses a file with good and bad rows, reads the report, opens a created order, at 390 and 1280 px', async () => {
      const { p } = env;
      const owner = await partnerDashboard(p, 'Esi Crafts', 'Esi shop');
      const cookie = owner.web.cookies.get(SESSION_COOKIE_NAME)!;
      for (const { width, height } of VIEWPORTS) {
        const context = await signedIn(cookie, { width, height });
        const page = await context.newPage();
        const csp: string[] = [];
        page.on(
          'console',
          (m) => m.text().includes('Content Security Policy') && csp.push(m.text()),
        );
        await page.goto(`${p.url}/dashboard/orders`);
        await page.getByRole('link', { name: 'Upload orders from a CSV file' }).click();
        await page.getByRole('heading', { name: 'Upload orders' }).waitFor();
        // The script shows the file chooser and reads the file into the text area.
        const csv = [
          HEADER,
          row(`B${width}-1`),
          row(`B${width}-2`, ''),
          row(`B${width}-3`, '024 123 4567', 'north'),
          row(`B${width}-4`),
        ].join('\n');
        await page
          .getByLabel('CSV file')
          .setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
        await expect.poll(() => page.getByLabel('CSV text').inputValue()).toBe(csv);
        await page.getByText('orders.csv read').waitFor();
        await checkPage(page, SHOTS, 'upload-form');
        await page.getByRole('button', { name: 'Upload orders' }).click();
        await page.getByRole('heading', { name: 'Upload result' }).waitFor();
        expect(await page.locator('#upload-summary').innerText()).toMatch(
          /2 of 4 orders created for Esi shop \(staging\); 2 failed/,
        );
        const report = await page.locator('#upload-report tbody tr').allInnerTexts();
        expect(report).toHaveLength(4);
        expect(report[1]).toMatch(/MISSING_REQUIRED_FIELD/);
        expect(report[2]).toMatch(/INVALID_ORDER_PAYLOAD delivery_lat must be a number/);
        await checkPage(page, SHOTS, 'upload-report');
        await page.locator('#upload-report a').first().click();
        await page.getByRole('heading', { name: `Order B${width}-1` }).waitFor();
        await checkPage(page, SHOTS, 'upload-order');
        expect(csp).toEqual([]);
        await context.close();
      }
    });

    it('works without JavaScript: no file chooser, the CSV pasted into the text area', async () => {
      const { p } = env;
      const owner = await partnerDashboard(p, 'Yaw Prints', 'Yaw shop');
      const context = await signedIn(owner.web.cookies.get(SESSION_COOKIE_NAME)!, {
        ...VIEWPORTS[0],
        javaScriptEnabled: false,
      });
      const page = await context.newPage();
      await page.goto(`${p.url}/dashboard/orders/upload`);
      expect(await page.getByLabel('CSV file').isVisible()).toBe(false);
      await page.getByLabel('CSV text').fill([HEADER, row('NOJS-1')].join('\n'));
      await page.getByRole('button', { name: 'Upload orders' }).click();
      await page.getByRole('heading', { name: 'Upload result' }).waitFor();
      expect(await page.locator('#upload-summary').innerText()).toMatch(/1 of 1 order created/);
      await context.close();
    });
  },
);
