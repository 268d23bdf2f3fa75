import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Courier } from '../../src/modules/couriers/index.ts';
import { allOffDuty, PICKUP, ZONE } from '../dispatch/helpers.ts';
import { contrastRatios, horizontalOverflow } from './browser.ts';
import { newPhone, smsCode } from './courier.ts';
import type { TestPlatform } from './harness.ts';
import { ROOT } from './process.ts';

/** Screenshots to look at (gitignored). */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'courier');

/** Saves a full-page screenshot of the courier app at 390 px; fails if it scrolls sideways or reads poorly outdoors. */
export async function checkPhonePage(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}-390.png`), fullPage: true });
  expect(await horizontalOverflow(page), `${name} at 390 px scrolls sideways`).toBeLessThanOrEqual(
    0,
  );
  // Read outdoors in sunlight: every action at 7:1 (WCAG AAA), every other text at 4.5:1.
  expect(
    (await contrastRatios(page, 'button, a, label')).filter((t) => t.ratio < 7),
    `${name}: an action below 7:1`,
  ).toEqual([]);
  expect(
    (await contrastRatios(page, 'body *')).filter((t) => t.ratio < 4.5),
    `${name}: text below 4.5:1`,
  ).toEqual([]);
}

/** A 390 px touch phone's page, with the Content Security Policy violations it reports collected. */
export async function phonePage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; violations: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    ...options,
  });
  const page = await context.newPage();
  // A step that never comes fails by its locator, before the test's own timeout hides which it was.
  page.setDefaultTimeout(20_000);
  const violations: string[] = [];
  page.on(
    'console',
    (m) => m.text().includes('Content Security Policy') && violations.push(m.text()),
  );
  return { context, page, violations };
}

/**
 * Closes a phone once its pages have left the app. The app reloads itself through its service worker
 * when a job action is answered; closing the context while that reload was in flight held Chromium's
 * teardown for 27 to 64 s (a test timeout in CI). A blank page first ends the app's scripts and the
 * navigation they started; when the app's own navigation interrupts it, the blank page is asked again.
 */
export async function closePhone(context: BrowserContext): Promise<void> {
  for (const page of context.pages()) {
    for (let attempt = 1; ; attempt++) {
      try {
        await page.goto('about:blank');
        break;
      } catch (error) {
        if (attempt === 3 || !/interrupted by another navigation/.test(String(error))) throw error;
      }
    }
  }
  await context.close();
}

/** Signs in to the courier app as a courier would: phone number, then the texted code. */
export async function signInOnPhone(page: Page, p: TestPlatform, phone: string): Promise<void> {
  await page.goto(`${p.url}/courier/sign-in`);
  await page.getByLabel('Your phone number').fill(phone.replace('+233', '0'));
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByLabel('Code').fill((await smsCode(p, phone))!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The app's scripts are deferred, fetched after the page's markup: a step taken once a heading
  // shows but before they ran (an event dispatched, a field restored) met no listener, and the test
  // waited for an answer that could never come (CI, on a loaded machine).
  await page.waitForURL((url) => !url.pathname.startsWith('/courier/sign-in'));
  await page.waitForLoadState('load');
}

/** The only on-duty courier, `name`, at the pickup, signed in on a phone located there that shows no job yet. */
export async function courierOnPhoneAtPickup(
  p: TestPlatform,
  browser: Browser,
  name: string,
): Promise<{ courier: Courier; context: BrowserContext; page: Page; violations: string[] }> {
  await allOffDuty(p);
  const phone = newPhone();
  const { couriers } = p.app.platform;
  const courier = await couriers.create({
    name,
    phone,
    vehicle: 'motorbike',
    zones: [ZONE],
  });
  await couriers.setDuty(courier.id, true);
  await couriers.reportPosition(courier.id, { ...PICKUP, at: new Date() });
  const { context, page, violations } = await phonePage(browser, {
    permissions: ['geolocation'],
    geolocation: { latitude: PICKUP.lat, longitude: PICKUP.lng },
  });
  await signInOnPhone(page, p, phone);
  await page.getByText('No job for you right now.').waitFor();
  return { courier, context, page, violations };
}
