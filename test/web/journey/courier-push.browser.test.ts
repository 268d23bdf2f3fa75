import { beforeAll, describe, expect, it } from 'vitest';
import { allOffDuty, PICKUP, productionOrder, ZONE } from '../../dispatch/helpers.ts';
import { startFakePushService } from '../../fakes/push-service.ts';
import { browserAvailable, usePlatformAndBrowser } from '../../helpers/browser.ts';
import { newPhone } from '../../helpers/courier.ts';
import { createPartner, type PartnerSetup } from '../../helpers/harness.ts';
import { closePhone, phonePage, signInOnPhone } from '../../helpers/courier-browser.ts';

const POLL = { timeout: 10_000 };

describe.runIf(browserAvailable)(
  'an offer pushed to the courier app in the background, headless Chromium',
  () => {
    const env = usePlatformAndBrowser();
    let s: PartnerSetup;
    beforeAll(async () => {
      s = await createPartner(env.p, { environment: 'production' });
    });

    it('reaches the service worker, which shows a notification with the pickup and fee, one per offer', async () => {
      const { p, browser } = env;
      const service = await startFakePushService();
      await allOffDuty(p);
      const phone = newPhone();
      const courier = await p.app.platform.couriers.create({
        name: 'Afia Background',
        phone,
        vehicle: 'motorbike',
        zones: [ZONE],
      });
      await p.app.platform.couriers.setDuty(courier.id, true);
      await p.app.platform.couriers.reportPosition(courier.id, { ...PICKUP, at: new Date() });
      const { context, page, violations } = await phonePage(browser, {
        viewport: { width: 360, height: 780 },
      });
      await context.grantPermissions(['notifications'], { origin: p.url });
      await signInOnPhone(page, p, phone);
      await page.getByRole('button', { name: 'Offer notifications: off' }).waitFor();
      const key = await page.locator('#app').getAttribute('data-push-key');
      // The button asks for permission and subscribes; Chromium without its push service (headless,
      // offline) cannot, and the page says so rather than failing quietly.
      await page.getByRole('button', { name: 'Offer notifications: off' }).press('Enter');
      await expect
        .poll(() => page.locator('#push-status').textContent(), POLL)
        .toMatch(/^(New offers ring this phone|Could not change offer notifications)/);
      await page.evaluate(() => navigator.serviceWorker.ready);

      // Headless Chromium has no push service offline: the local one stands in for the browser's
      // (the subscription is sent as the app's script sends PushSubscription.toJSON()), and what it
      // receives is handed to the service worker over the DevTools protocol, as a push would be.
      const sub = await service.subscribe(key!);
      const saved = await page.evaluate(
        async (body) => {
          const csrf = document.getElementById('app')!.dataset.csrf!;
          const r = await fetch('/courier/push-subscription', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
            body: JSON.stringify(body),
          });
          return r.status;
        },
        { endpoint: sub.endpoint, keys: sub.keys },
      );
      expect(saved).toBe(200);
      const cdp = await context.newCDPSession(page);
      const registered = new Promise<string>((resolve) =>
        cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
          const ours = registrations.find(
            (r) => r.scopeURL === `${p.url}/courier/` && !r.isDeleted,
          );
          if (ours) resolve(ours.registrationId);
        }),
      );
      await cdp.send('ServiceWorker.enable');
      const registrationId = await registered;

      // With the app on screen a push draws no notification (the page shows the offer itself).
      expect(await page.evaluate(() => document.visibilityState)).toBe('visible');
      const onScreen = JSON.stringify({ title: 'On screen', body: '', tag: 'offer-on-screen' });
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: p.url,
        registrationId,
        data: onScreen,
      });

      // The phone locked: no window of the app is on screen.
      await page.goto('about:blank');
      const order = await productionOrder(s);
      expect((await p.app.platform.dispatch!.offers.tick()).offered).toBeGreaterThanOrEqual(1);
      await expect.poll(() => service.messages(sub.clientHash).length, POLL).toBe(1);
      const data = service.messages(sub.clientHash)[0]!;
      expect(JSON.parse(data).order_id).toBe(order);
      await cdp.send('ServiceWorker.deliverPushMessage', { origin: p.url, registrationId, data });

      const app = await context.newPage();
      await app.goto(`${p.url}/courier/`);
      const shown = () =>
        app.evaluate(async () =>
          (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
            title: n.title,
            body: n.body,
            tag: n.tag,
          })),
        );
      // Only the background push's notification: the one pushed while on screen drew none.
      await expect.poll(shown, POLL).toEqual([
        {
          title: 'New job offered',
          body: expect.stringMatching(/^Pickup: .+ · fee GHS \d+\.\d{2}$/),
          tag: `offer-${JSON.parse(data).offer_id}`,
        },
      ]);
      // The app opened from it shows the offer itself.
      await app.getByRole('heading', { name: 'New job offered' }).waitFor();
      expect(violations).toEqual([]);
      await closePhone(context);
      await service.close();
    });
  },
);
