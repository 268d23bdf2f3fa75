import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOffDuty, PICKUP, productionOrder, ZONE } from '../dispatch/helpers.ts';
import { browserAvailable, horizontalOverflow, launchBrowser } from '../helpers/browser.ts';
import { newPhone, smsCode } from '../helpers/courier.ts';
import { createPartner, startPlatform, type PartnerSetup, type TestPlatform } from '../helpers/harness.ts';
import { ROOT } from '../helpers/process.ts';

/** Screenshots to look at (gitignored). */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'courier');

async function check(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}-390.png`), fullPage: true });
  expect(await horizontalOverflow(page), `${name} at 390 px scrolls sideways`).toBeLessThanOrEqual(0);
}

describe.runIf(browserAvailable)('a courier job in the courier app, headless Chromium at 390 px', () => {
  let p: TestPlatform;
  let s: PartnerSetup;
  let browser: Browser;
  beforeAll(async () => {
    [p, browser] = await Promise.all([startPlatform(), launchBrowser()]);
    s = await createPartner(p, { environment: 'production' });
  });
  afterAll(async () => {
    await browser?.close();
    await p?.close();
  });

  it('takes an offer through pickup to a delivery whose code is entered offline and applied once back online', async () => {
    await allOffDuty(p);
    const phone = newPhone();
    const { couriers } = p.app.platform;
    const courier = await couriers.create({ name: 'Yaw Darko', phone, vehicle: 'motorbike', zones: [ZONE] });
    await couriers.setDuty(courier.id, true);
    await couriers.reportPosition(courier.id, { ...PICKUP, at: new Date() });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, permissions: ['geolocation'], geolocation: { latitude: PICKUP.lat, longitude: PICKUP.lng } });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => m.text().includes('Content Security Policy') && violations.push(m.text()));
    await page.goto(`${p.url}/courier/sign-in`);
    await page.getByLabel('Your phone number').fill(phone.replace('+233', '0'));
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('Code').fill((await smsCode(p, phone))!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('No job for you right now.').waitFor();

    const id = await productionOrder(s);
    await p.app.platform.dispatch!.offers.tick();
    await page.reload();
    await page.getByRole('heading', { name: 'New job offered' }).waitFor();
    await check(page, 'job-offer');

    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('heading', { name: 'Your job' }).waitFor();
    await expect(page.getByRole('link', { name: 'Directions (Google Maps)' }).getAttribute('href')).resolves.toBe('https://www.google.com/maps/dir/?api=1&destination=5.549,-0.209');
    await check(page, 'job-accepted');
    const [sms] = await p.app.platform.db.query<{ body: string }>(`select body from dev_sms_outbox where to_number = '+233241234567' and body like '%Delivery code%' order by id desc limit 1`);
    const code = /Delivery code: (\d{4})\./.exec(sms!.body)![1]!;

    await page.getByRole('button', { name: 'Picked up' }).click();
    await page.getByLabel("Recipient's 4-digit delivery code").waitFor();
    await check(page, 'job-picked-up');

    // Offline at the door: the delivery waits on the phone.
    await context.setOffline(true);
    await page.getByLabel("Recipient's 4-digit delivery code").fill(code);
    await page.getByRole('button', { name: 'Delivered' }).click();
    await expect.poll(() => page.locator('#sync').textContent()).toMatch(/waiting to be sent/);
    await check(page, 'job-delivered-offline');
    const status = async () => (await p.app.platform.db.query<{ status: string }>('select status from delivery_orders where id = $1', [id]))[0]!.status;
    expect(await status()).toBe('in_transit');

    await context.setOffline(false);
    await expect.poll(status, { timeout: 15_000 }).toBe('delivered');
    await page.getByText('No job for you right now.').waitFor({ timeout: 15_000 });
    await check(page, 'job-done');
    const delivered = await p.app.platform.db.query(`select 1 from courier_actions where courier_id = $1 and kind = 'delivered'`, [courier.id]);
    expect(delivered).toHaveLength(1);
    const moves = await p.app.platform.db.query(`select 1 from outbox_events where subject_id = $1 and payload->'data'->>'status' = 'delivered'`, [id]);
    expect(moves).toHaveLength(1);
    expect(violations).toEqual([]);
    await context.close();
  });
});
