import { beforeAll, describe, expect, it, vi } from 'vitest';
import { allOffDuty, PICKUP, productionOrder, ZONE } from '../../dispatch/helpers.ts';
import { browserAvailable, usePlatformAndBrowser } from '../../helpers/browser.ts';
import { newPhone } from '../../helpers/courier.ts';
import { createPartner, type PartnerSetup } from '../../helpers/harness.ts';
import { storedOrder } from '../../helpers/orders-read.ts';
import {
  checkPhonePage,
  closePhone,
  phonePage,
  signInOnPhone,
} from '../../helpers/courier-browser.ts';

describe.runIf(browserAvailable)(
  'a failed delivery in the courier app, headless Chromium at 390 px',
  () => {
    const env = usePlatformAndBrowser();
    let s: PartnerSetup;
    beforeAll(async () => {
      s = await createPartner(env.p, { environment: 'production' });
    });

    it('tries again after a could-not-deliver, then takes the goods back to the pickup, the return sent from offline once', async () => {
      const { p, browser } = env;
      await allOffDuty(p);
      const phone = newPhone();
      const { couriers } = p.app.platform;
      const courier = await couriers.create({
        name: 'Ama Mensah',
        phone,
        vehicle: 'motorbike',
        zones: [ZONE],
      });
      await couriers.setDuty(courier.id, true);
      await couriers.reportPosition(courier.id, { ...PICKUP, at: new Date() });
      const id = await productionOrder(s);
      const svc = p.app.platform.dispatch!.service;
      await svc.assign(id, courier.id);
      await svc.pickedUp(courier.id, id);

      const { context, page, violations } = await phonePage(browser);
      await signInOnPhone(page, p, phone);
      await page.getByRole('heading', { name: 'Your job' }).waitFor();
      // The page reloads once the action went through: wait for the drop-off stage's page.
      const atDropoff = async () => {
        const arrive = page.getByRole('button', { name: 'I am at the drop-off' });
        await arrive.click();
        await arrive.waitFor({ state: 'detached', timeout: 15_000 });
        await page.waitForLoadState();
        await page.getByLabel('Could not deliver: why?').waitFor();
      };
      const order = async () => {
        const { status, delivery_attempts, failure_reason, failure_note } = await storedOrder(
          p,
          id,
        );
        return { status, delivery_attempts, failure_reason, failure_note };
      };

      // First attempt: nobody at the door. The courier keeps the job and is offered the drop-off again.
      await atDropoff();
      await expect(page.locator('#reason option').allTextContents()).resolves.toEqual([
        'Choose a reason',
        'Recipient absent',
        'Refused by the recipient',
        'Wrong address',
        'Other',
      ]);
      await checkPhonePage(page, 'could-not-deliver-form');
      await page.getByLabel('Could not deliver: why?').selectOption({ label: 'Recipient absent' });
      await page.getByRole('button', { name: 'Could not deliver' }).click();
      await expect.poll(order, { timeout: 15_000 }).toMatchObject({
        status: 'in_transit',
        delivery_attempts: 2,
        failure_reason: 'recipient_absent',
      });
      await page.getByRole('button', { name: 'I am at the drop-off' }).waitFor({ timeout: 15_000 });

      // Second attempt: "Other" needs a note before the form goes.
      await atDropoff();
      await page.getByLabel('Could not deliver: why?').selectOption('other');
      await page.getByRole('button', { name: 'Could not deliver' }).click();
      expect(
        await page
          .getByLabel('Note (needed for Other)')
          .evaluate((el: HTMLInputElement) => el.validity.valueMissing),
      ).toBe(true);
      await page.getByLabel('Note (needed for Other)').fill('Gate locked, phone off');
      await page.getByRole('button', { name: 'Could not deliver' }).click();
      await expect.poll(order, { timeout: 15_000 }).toMatchObject({
        status: 'returning',
        failure_reason: 'other',
        failure_note: 'Gate locked, phone off',
      });

      // The return: the pickup, its directions and one button.
      await page
        .getByRole('button', { name: 'Returned to the pickup' })
        .waitFor({ timeout: 15_000 });
      await expect(page.locator('#return-to').textContent()).resolves.toContain('Makola Market');
      await expect(
        page.getByRole('link', { name: 'Directions (Google Maps)' }).getAttribute('href'),
      ).resolves.toBe('https://www.google.com/maps/dir/?api=1&destination=5.549,-0.209');
      expect(await page.getByLabel('Could not deliver: why?').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Delivered' }).count()).toBe(0);
      await checkPhonePage(page, 'job-returning');

      await context.setOffline(true);
      await page.getByRole('button', { name: 'Returned to the pickup' }).click();
      await expect.poll(() => page.locator('#sync').textContent()).toMatch(/waiting to be sent/);
      expect((await order()).status).toBe('returning');
      await context.setOffline(false);
      await expect.poll(async () => (await order()).status, { timeout: 15_000 }).toBe('returned');
      await expect
        .poll(() => page.locator('#sync').textContent(), { timeout: 15_000 })
        .toBe('All sent.');
      // The page reloads itself once sent; under load that reload can race the connection coming back
      // (the service worker then answers the cached page), so the test opens the page again itself.
      // Its reload may meet the app's (aborted, or the page detached mid-call): tried again until
      // the page shows the job is over.
      await vi.waitFor(
        async () => {
          await page.reload();
          await page.getByText('No job for you right now.').waitFor({ timeout: 5_000 });
        },
        { timeout: 30_000, interval: 200 },
      );
      await checkPhonePage(page, 'job-returned');

      const returned = await p.app.platform.db.query(
        `select 1 from outbox_events where subject_id = $1 and type = 'delivery.order.returned'`,
        [id],
      );
      expect(returned).toHaveLength(1);
      expect(violations).toEqual([]);
      await closePhone(context);
    });
  },
);
