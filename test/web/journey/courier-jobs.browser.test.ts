import { beforeAll, describe, expect, it } from 'vitest';
import { productionOrder } from '../../dispatch/helpers.ts';
import { browserAvailable, usePlatformAndBrowser } from '../../helpers/browser.ts';
import { createPartner, type PartnerSetup } from '../../helpers/harness.ts';
import { textsTo } from '../../helpers/outbox-read.ts';
import {
  checkPhonePage,
  closePhone,
  courierOnPhoneAtPickup,
} from '../../helpers/courier-browser.ts';

describe.runIf(browserAvailable)(
  'a courier job in the courier app, headless Chromium at 390 px',
  () => {
    const env = usePlatformAndBrowser();
    let s: PartnerSetup;
    beforeAll(async () => {
      s = await createPartner(env.p, { environment: 'production' });
    });

    it('takes an offer through pickup to a delivery whose code is entered offline and applied once back online', async () => {
      const { p, browser } = env;
      const { courier, context, page, violations } = await courierOnPhoneAtPickup(
        p,
        browser,
        'Yaw Darko',
      );

      const id = await productionOrder(s);
      await p.app.platform.dispatch!.offers.tick();
      await page.reload();
      await page.getByRole('heading', { name: 'New job offered' }).waitFor();
      await checkPhonePage(page, 'job-offer');

      await page.getByRole('button', { name: 'Accept' }).click();
      await page.getByRole('heading', { name: 'Your job' }).waitFor();
      await expect(
        page.getByRole('link', { name: 'Directions (Google Maps)' }).getAttribute('href'),
      ).resolves.toBe('https://www.google.com/maps/dir/?api=1&destination=5.549,-0.209');
      await checkPhonePage(page, 'job-accepted');
      const sms = (await textsTo(p, '+233241234567')).find((t) => t.body.includes('Delivery code'));
      const code = /Delivery code: (\d{4})\./.exec(sms!.body)![1]!;

      await page.getByRole('button', { name: 'Picked up' }).click();
      await page.getByLabel("Recipient's 4-digit delivery code").waitFor();
      await checkPhonePage(page, 'job-picked-up');

      // Offline at the door: the delivery waits on the phone.
      await context.setOffline(true);
      await page.getByLabel("Recipient's 4-digit delivery code").fill(code);
      await page.getByRole('button', { name: 'Delivered' }).click();
      await expect.poll(() => page.locator('#sync').textContent()).toMatch(/waiting to be sent/);
      await checkPhonePage(page, 'job-delivered-offline');
      const status = async () =>
        (
          await p.app.platform.db.query<{ status: string }>(
            'select status from delivery_orders where id = $1',
            [id],
          )
        )[0]!.status;
      expect(await status()).toBe('in_transit');

      await context.setOffline(false);
      await expect.poll(status, { timeout: 15_000 }).toBe('delivered');
      await page.getByText('No job for you right now.').waitFor({ timeout: 15_000 });
      await checkPhonePage(page, 'job-done');
      const delivered = (await p.app.platform.courierActions.history(courier.id)).filter(
        (a) => a.kind === 'delivered',
      );
      expect(delivered).toHaveLength(1);
      const moves = await p.app.platform.db.query(
        `select 1 from outbox_events where subject_id = $1 and payload->'data'->>'status' = 'delivered'`,
        [id],
      );
      expect(moves).toHaveLength(1);
      expect(violations).toEqual([]);
      await closePhone(context);
    });
  },
);
