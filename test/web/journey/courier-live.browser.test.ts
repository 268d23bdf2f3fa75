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

describe.runIf(browserAvailable)('a live offer in the courier app, headless Chromium', () => {
  const env = usePlatformAndBrowser();
  let s: PartnerSetup;
  beforeAll(async () => {
    s = await createPartner(env.p, { environment: 'production' });
  });

  for (const width of [360, 390]) {
    it(`shows an offer dispatched while the page is open within 2 s, without a reload, with a countdown and a vibration (${width} px)`, async () => {
      const { p, browser } = env;
      await allOffDuty(p);
      const phone = newPhone();
      const courier = await p.app.platform.couriers.create({
        name: 'Akosua Live',
        phone,
        vehicle: 'motorbike',
        zones: [ZONE],
      });
      await p.app.platform.couriers.setDuty(courier.id, true);
      await p.app.platform.couriers.reportPosition(courier.id, { ...PICKUP, at: new Date() });
      const { context, page, violations } = await phonePage(browser, {
        viewport: { width, height: 800 },
      });
      // Records the vibration the page asks for (headless Chromium has no motor).
      await context.addInitScript(() => {
        (window as any).vibrations = [];
        (navigator as any).vibrate = (pattern: unknown) => {
          (window as any).vibrations.push(pattern);
          return true;
        };
      });
      // The page's event stream answers once open (EventSource connects as the page loads).
      const streamOpen = page.waitForResponse((r) => r.url().endsWith('/courier/events'));
      await signInOnPhone(page, p, phone);
      await page.getByText('No job for you right now.').waitFor();
      expect((await streamOpen).status()).toBe(200);
      let navigations = 0;
      page.on('framenavigated', (f) => f === page.mainFrame() && navigations++);

      const order = await productionOrder(s);
      expect((await p.app.platform.dispatch!.offers.tick()).offered).toBeGreaterThanOrEqual(1);
      // The offer is committed when the dispatch round returns: from then on the clock runs.
      const dispatched = Date.now();
      await page.getByRole('heading', { name: 'New job offered' }).waitFor({ timeout: 2000 });
      const shownAfter = Date.now() - dispatched;
      expect(shownAfter).toBeLessThanOrEqual(2000);
      console.info(`offer on screen ${shownAfter} ms after dispatch (${width} px)`);
      expect(navigations).toBe(0);
      await expect(page.locator('.job').getAttribute('data-order')).resolves.toBe(order);
      await expect
        .poll(() => page.locator('#countdown').textContent())
        .toMatch(/^Answer within \d+ s$/);
      await expect(page.evaluate(() => (window as any).vibrations.length)).resolves.toBe(1);
      await checkPhonePage(page, `live-offer-${width}`);

      // Accepting the drawn offer goes through the queue like any action.
      await page.getByRole('button', { name: 'Accept' }).click();
      await page.getByRole('heading', { name: 'Your job' }).waitFor({ timeout: 15_000 });
      await expect.poll(() => page.locator('#outcome').textContent()).toBe('Job accepted.');
      expect(violations).toEqual([]);
      await closePhone(context);
    });
  }
});
