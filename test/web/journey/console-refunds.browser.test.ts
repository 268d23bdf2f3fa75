import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getSale,
  orderBody,
  placed,
  salesPartner,
  shop,
  verifySale,
} from '../../catalog/helpers.ts';
import { hubtelEnv, startFakeHubtel, type FakeHubtel } from '../../fakes/hubtel.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import {
  browserAvailable,
  horizontalOverflow,
  launchBrowser,
  VIEWPORTS,
} from '../../helpers/browser.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { ROOT } from '../../helpers/process.ts';

/** Screenshots to look at (gitignored). */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'console');

describe.runIf(browserAvailable)(
  'a buyer refund in the console, in headless Chromium at 390 px',
  () => {
    let hubtel: FakeHubtel;
    let p: TestPlatform;
    let browser: Browser;
    let now = Date.now();
    beforeAll(async () => {
      hubtel = await startFakeHubtel();
      [p, browser] = await Promise.all([
        startPlatform({ clock: () => now, env: hubtelEnv(hubtel), transfers: new FakeTransfers() }),
        launchBrowser(),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await p?.close();
      await hubtel?.close();
    });

    it('finance gives the wallet by keyboard and the refund is sent, without sideways scrolling or CSP violations', async () => {
      const s = await salesPartner(p);
      const sale = await placed(s, orderBody(await shop(p), { payment_method: 'online' }));
      hubtel.pay(
        (
          await p.app.platform.db.query<{ client_reference: string }>(
            'select client_reference from sales where id = $1',
            [sale.sale_id],
          )
        )[0]!.client_reference,
      );
      await verifySale(s, sale.sale_id);
      await p.admin(
        'POST',
        `/delivery/orders/${(await getSale(s, { sale_id: sale.sale_id })).body.data.delivery.order_id}/status`,
        { status: 'cancelled' },
      );
      await p.app.platform.catalog!.refunds.tick();

      const { web } = await signedInOperator(p, ['finance'], () => (now += TOTP_STEP_MS));
      const context = await browser.newContext({ viewport: VIEWPORTS[0] });
      await context.addCookies(
        [...web.cookies].map(([name, value]) => ({ name, value, url: p.url })),
      );
      const page = await context.newPage();
      const problems: string[] = [];
      page.on(
        'console',
        (m) => m.text().includes('Content Security Policy') && problems.push(m.text()),
      );
      page.on('pageerror', (e) => problems.push(e.message));

      await page.goto(`${p.url}/console/refunds`);
      await page.getByRole('link', { name: sale.reference }).click();
      expect(await page.locator('#refund-state').textContent()).toBe('pending');
      await page.getByLabel('Network').selectOption('telecel');
      await page.getByLabel('Registered name').fill('Ama Mensah');
      await page.getByLabel('Registered name').press('Enter');
      await expect.poll(() => page.locator('#refund-state').textContent()).toBe('succeeded');
      expect(await page.getByRole('status').textContent()).toContain('Refund succeeded.');
      expect(await horizontalOverflow(page)).toBe(0);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, 'refund-390.png'), fullPage: true });
      expect(problems).toEqual([]);
    });
  },
);
