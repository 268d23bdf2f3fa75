import { beforeAll, describe, expect, it } from 'vitest';
import { allOffDuty, PICKUP, productionOrder, ZONE } from '../../dispatch/helpers.ts';
import { browserAvailable, usePlatformAndBrowser } from '../../helpers/browser.ts';
import { newPhone } from '../../helpers/courier.ts';
import { createPartner, type PartnerSetup } from '../../helpers/harness.ts';
import {
  checkPhonePage,
  closePhone,
  phonePage,
  signInOnPhone,
} from '../../helpers/courier-browser.ts';

/**
 * Issue 28's lost could-not-deliver: the reason chosen right after "I am at the drop-off", the page
 * reloaded when that action was answered and the tap on "Could not deliver" landed on a fresh, empty
 * form: nothing queued, "All sent.", the job still at the drop-off. And when it did go, a failed
 * attempt with one left put the job back at "I am at the drop-off" without a word; a refused
 * action's reason was wiped by the next position report that went through.
 */
describe.runIf(browserAvailable)(
  'job actions tapped back to back in the courier app, headless Chromium at 390 px',
  () => {
    const env = usePlatformAndBrowser();
    let s: PartnerSetup;
    beforeAll(async () => {
      s = await createPartner(env.p, { environment: 'production' });
    });

    async function courierWithJob(name: string) {
      const { p } = env;
      await allOffDuty(p);
      const phone = newPhone();
      const courier = await p.app.platform.couriers.create({
        name,
        phone,
        vehicle: 'motorbike',
        zones: [ZONE],
      });
      await p.app.platform.couriers.setDuty(courier.id, true);
      await p.app.platform.couriers.reportPosition(courier.id, { ...PICKUP, at: new Date() });
      const id = await productionOrder(s);
      const svc = p.app.platform.dispatch!.service;
      await svc.assign(id, courier.id);
      await svc.pickedUp(courier.id, id);
      return { phone, courier, id };
    }

    it('applies "Could not deliver" tapped right after "I am at the drop-off" once, and says what became of it', async () => {
      const { p, browser } = env;
      const { phone, courier, id } = await courierWithJob('Kofi Boateng');
      const { context, page, violations } = await phonePage(browser);
      await signInOnPhone(page, p, phone);
      await page.getByRole('heading', { name: 'Your job' }).waitFor();

      // The reason is chosen while "I am at the drop-off" is being answered (the request is held
      // until then): the page must not be replaced under the courier's fingers (the tap would land
      // on an empty form and queue nothing).
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(
        '**/courier/actions',
        async (route) => {
          await held;
          await route.continue();
        },
        { times: 1 },
      );
      const arrivedAnswered = page.waitForResponse((r) => r.url().endsWith('/courier/actions'));
      await page.getByRole('button', { name: 'I am at the drop-off' }).click();
      await page
        .getByLabel('Could not deliver: why?')
        .selectOption({ label: 'Refused by the recipient' });
      release();
      await arrivedAnswered;
      await page.getByRole('button', { name: 'Could not deliver' }).click();

      const order = async () =>
        (
          await p.app.platform.db.query<any>(
            'select status, failure_reason, delivery_attempts from delivery_orders where id = $1',
            [id],
          )
        )[0];
      await expect
        .poll(order, { timeout: 15_000 })
        .toMatchObject({ status: 'in_transit', failure_reason: 'refused', delivery_attempts: 2 });
      // The courier is told the attempt was recorded and what to do next, beside the buttons, after the reload.
      await expect
        .poll(() => page.locator('#outcome').textContent(), { timeout: 15_000 })
        .toMatch(/^Could not deliver: recorded as a failed attempt\. The order goes out again/);
      await page.getByRole('button', { name: 'I am at the drop-off' }).waitFor();
      await expect.poll(() => page.locator('#sync').textContent()).toBe('All sent.');
      await checkPhonePage(page, 'could-not-deliver-recorded');
      const actions = (await p.app.platform.courierActions.history(courier.id)).map(
        ({ kind, outcome }) => ({ kind, outcome }),
      );
      expect(actions).toEqual([
        { kind: 'arrived', outcome: 'applied' },
        { kind: 'could_not_deliver', outcome: 'applied' },
      ]);
      expect(violations).toEqual([]);
      await closePhone(context);
    });

    it('keeps a reason chosen as the page reloads, and sends it with the next tap', async () => {
      const { p, browser } = env;
      const { phone, id } = await courierWithJob('Ama Serwaa');
      const { context, page, violations } = await phonePage(browser);
      await signInOnPhone(page, p, phone);
      await page.getByRole('heading', { name: 'Your job' }).waitFor();
      // The app reloads when a job action is answered; a reason chosen in that instant outlives it.
      await page.getByLabel('Could not deliver: why?').selectOption({ label: 'Other' });
      await page.getByLabel('Note (needed for Other)').fill('Gate locked, no answer');
      await page.reload();
      await page.getByRole('heading', { name: 'Your job' }).waitFor();
      await expect(page.getByLabel('Could not deliver: why?').inputValue()).resolves.toBe('other');
      await expect(page.getByLabel('Note (needed for Other)').inputValue()).resolves.toBe(
        'Gate locked, no answer',
      );
      await page.getByRole('button', { name: 'Could not deliver' }).click();
      await expect
        .poll(
          async () =>
            (
              await p.app.platform.db.query<any>(
                'select failure_reason, delivery_attempts from delivery_orders where id = $1',
                [id],
              )
            )[0],
          { timeout: 15_000 },
        )
        .toMatchObject({ failure_reason: 'other', delivery_attempts: 2 });
      await expect
        .poll(() => page.locator('#outcome').textContent(), { timeout: 15_000 })
        .toMatch(/^Could not deliver: recorded as a failed attempt\./);
      expect(violations).toEqual([]);
      await closePhone(context);
    });

    it('keeps a refused action on screen with what to do after later actions go through', async () => {
      const { p, browser } = env;
      const { phone, id } = await courierWithJob('Efua Owusu');
      const { context, page } = await phonePage(browser);
      await signInOnPhone(page, p, phone);
      await page.getByRole('heading', { name: 'Your job' }).waitFor();
      // Offline at the door, the courier arrives; meanwhile operations give the job to someone else.
      await context.setOffline(true);
      await page.getByRole('button', { name: 'I am at the drop-off' }).click();
      await expect.poll(() => page.locator('#sync').textContent()).toMatch(/waiting to be sent/);
      const other = await p.app.platform.couriers.create({
        name: 'Other Courier',
        phone: newPhone(),
        vehicle: 'motorbike',
        zones: [ZONE],
      });
      await p.app.platform.couriers.setDuty(other.id, true);
      await p.app.platform.dispatch!.service.assign(id, other.id);
      await context.setOffline(false);
      const refused =
        /^Not done: Only the courier holding this job may act on it\. The screen shows the job as it is now: check it, then try again or call operations\.$/;
      await expect
        .poll(() => page.locator('#outcome').textContent(), { timeout: 15_000 })
        .toMatch(refused);
      await page.getByText('No job for you right now.').waitFor({ timeout: 15_000 });
      // A duty change going through afterwards does not wipe the refusal.
      await page.getByRole('button', { name: 'On duty' }).click();
      await expect
        .poll(() => page.locator('#sync').textContent(), { timeout: 15_000 })
        .toBe('All sent.');
      await expect(page.locator('#outcome').textContent()).resolves.toMatch(refused);
      await expect(
        page.locator('#outcome').evaluate((el) => el.classList.contains('refused')),
      ).resolves.toBe(true);
      await closePhone(context);
    });
  },
);
