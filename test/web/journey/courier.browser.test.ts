import { describe, expect, it } from 'vitest';
import { browserAvailable, usePlatformAndBrowser } from '../../helpers/browser.ts';
import { newPhone, smsCode } from '../../helpers/courier.ts';
import { checkPhonePage, closePhone, phonePage } from '../../helpers/courier-browser.ts';

const ACCRA = { latitude: 5.6037, longitude: -0.187 };
const OSU = { latitude: 5.556, longitude: -0.1769 };
// The phone's actions reach the server and the page through the service worker's queue: on a
// loaded machine that takes more than expect.poll's default second.
const SERVER_APPLIES = { timeout: 10_000 };

describe.runIf(browserAvailable)('the courier app in headless Chromium at 390 px', () => {
  const env = usePlatformAndBrowser();

  it('signs in with the texted code, goes on duty, queues actions offline and applies each once back online', async () => {
    const { p, browser } = env;
    const phone = newPhone();
    const courier = await p.app.platform.couriers.create({
      name: 'Nana Yeboah',
      phone,
      vehicle: 'motorbike',
    });
    const { context, page, violations } = await phonePage(browser, {
      permissions: ['geolocation'],
      geolocation: ACCRA,
    });

    await page.goto(`${p.url}/courier`);
    expect(new URL(page.url()).pathname).toBe('/courier/sign-in');
    await checkPhonePage(page, 'sign-in');
    await page.getByLabel('Your phone number').fill(phone.replace('+233', '0'));
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('Code').waitFor();
    await checkPhonePage(page, 'code');
    await page.getByLabel('Code').fill((await smsCode(p, phone))!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Hello, Nana Yeboah' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/courier/');

    // On duty: the duty action and the first position are sent at once.
    await page.getByRole('button', { name: 'Off duty' }).click();
    await expect
      .poll(async () => (await p.app.platform.couriers.get(courier.id)).on_duty, SERVER_APPLIES)
      .toBe(true);
    await expect
      .poll(async () => (await p.app.platform.couriers.get(courier.id)).last_lat, SERVER_APPLIES)
      .toBe(ACCRA.latitude);
    await expect.poll(() => page.locator('#sync').textContent(), SERVER_APPLIES).toBe('All sent.');
    await checkPhonePage(page, 'home-on-duty');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));

    // Offline: off duty, on duty again (which reports the position at once), all kept on the phone.
    const actions = async () => p.app.platform.courierActions.history(courier.id);
    const sentBefore = (await actions()).length;
    await context.setOffline(true);
    await context.setGeolocation(OSU);
    await page.getByRole('button', { name: 'On duty' }).click();
    await page.getByRole('button', { name: 'Off duty' }).click();
    await expect
      .poll(() => page.locator('#sync').textContent(), SERVER_APPLIES)
      .toMatch(/^3 actions waiting to be sent/);
    expect((await actions()).length).toBe(sentBefore);
    // The app opens offline (the service worker's shell), its queue still there, and being on duty
    // it reports the position again as it opens.
    await page.reload();
    await page.getByRole('heading', { name: 'Hello, Nana Yeboah' }).waitFor();
    await expect
      .poll(() => page.locator('#sync').textContent(), SERVER_APPLIES)
      .toMatch(/^4 actions waiting to be sent/);
    await checkPhonePage(page, 'home-offline');

    await context.setOffline(false);
    await expect
      .poll(() => page.locator('#sync').textContent(), { timeout: 15_000 })
      .toBe('All sent.');
    const after = await actions();
    // The two duty changes are recorded; the two position reports are applied without a record
    // (a report is idempotent by itself).
    expect(after.length).toBe(sentBefore + 2);
    expect(new Set(after.map((a) => a.id)).size).toBe(after.length);
    expect(after.every((a) => a.outcome === 'applied')).toBe(true);
    const row = await p.app.platform.couriers.get(courier.id);
    expect(row.on_duty).toBe(true);
    expect([row.last_lat, row.last_lng]).toEqual([OSU.latitude, OSU.longitude]);
    expect(violations).toEqual([]);
    await closePhone(context);
  });
});
