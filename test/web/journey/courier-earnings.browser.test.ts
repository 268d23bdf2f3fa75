import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOffDuty, PICKUP, productionOrder, toDropoff, ZONE } from '../../dispatch/helpers.ts';
import {
  browserAvailable,
  contrastRatios,
  launchBrowser,
  usePlatformAndBrowser,
} from '../../helpers/browser.ts';
import { newPhone } from '../../helpers/courier.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { runPayouts, setDestination } from '../../payouts/helpers.ts';
import {
  checkPhonePage,
  closePhone,
  phonePage,
  signInOnPhone,
} from '../../helpers/courier-browser.ts';

const cedis = (pesewas: number) => `GH₵ ${(pesewas / 100).toFixed(2)}`;

describe.runIf(browserAvailable)('the courier earnings screen, headless Chromium at 390 px', () => {
  const env = usePlatformAndBrowser();
  let s: PartnerSetup;
  beforeAll(async () => {
    s = await createPartner(env.p, { environment: 'production' });
  });

  it("shows today's and this week's pay and each job, reached and left with the keyboard", async () => {
    const { p, browser } = env;
    await allOffDuty(p);
    const set = await p.admin('POST', '/courier-pay/rules', {
      zone: 'default',
      vehicle: 'motorbike',
      base_pesewas: 700,
      per_km_pesewas: 150,
      per_failed_attempt_pesewas: 300,
    });
    expect(set.status).toBe(201);
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
    const failedFirst = await productionOrder(s);
    await toDropoff(p, failedFirst, courier.id);
    await p.app.platform.dispatch!.service.couldNotDeliver(
      courier.id,
      failedFirst,
      'recipient_absent',
    );
    const id = await productionOrder(s);
    await toDropoff(p, id, courier.id);
    await p.app.platform.dispatch!.service.delivered(courier.id, id);
    const km = await p.app.platform.delivery!.orders.roadKm(id);
    const pay = 700 + Math.round(150 * km);

    const { context, page, violations } = await phonePage(browser);
    await signInOnPhone(page, p, phone);
    const link = page.getByRole('link', { name: 'Earnings' });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Earnings' }).waitFor();
    await expect(page.locator('[data-total="today"]').textContent()).resolves.toBe(
      cedis(pay + 300),
    );
    await expect(page.locator('[data-total="week"]').textContent()).resolves.toBe(cedis(pay + 300));
    const jobs = await page.locator('.earnings li').allInnerTexts();
    expect(jobs).toHaveLength(2);
    expect(jobs[0]).toContain('Delivered');
    expect(jobs[0]).toContain(cedis(pay));
    expect(jobs[0]).toContain(id);
    expect(jobs[1]).toContain('Could not deliver (trip 1)');
    expect(jobs[1]).toContain(cedis(300));
    await checkPhonePage(page, 'earnings');
    const again = await page.reload();
    expect(again!.headers()['content-security-policy']).toContain("script-src 'self'");
    expect((await contrastRatios(page, 'main *')).filter((t) => t.ratio < 4.5)).toEqual([]);

    await page.getByRole('link', { name: '← Jobs' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${p.url}/courier/`);
    expect(violations).toEqual([]);
    await closePhone(context);
  });

  it('sends a signed-out visitor to sign in', async () => {
    const res = await fetch(`${env.p.url}/courier/earnings`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/courier/sign-in');
  });
});

describe.runIf(browserAvailable)('the courier earnings screen updates itself, 390 px', () => {
  let p: TestPlatform;
  let browser: Browser;
  // The server's clock: real time, moved back for an earning booked before the last payout cut-off.
  let shift = 0;
  beforeAll(async () => {
    [p, browser] = await Promise.all([
      startPlatform({
        clock: () => Date.now() + shift,
        env: { PAYOUT_INTERVAL_MS: '0', PAYOUT_COOLING_HOURS: '0' },
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await p?.close();
  });

  const book = (courierId: string, orderId: string) =>
    p.app.platform.db.transaction((tx) =>
      p.app.platform.earnings.book(tx, {
        orderId,
        courierId,
        occasion: 'delivered',
        zone: null,
        vehicle: 'motorbike',
        roadKm: 5,
      }),
    );

  it('shows a delivery credited and a payout made without a reload', async () => {
    const phone = newPhone();
    const courier = await p.app.platform.couriers.create({
      name: 'Esi Owusu',
      phone,
      vehicle: 'motorbike',
    });
    // Earned two days ago, by the rule in force then: past the payout cut-off.
    shift = -50 * 3_600_000;
    const set = await p.admin('POST', '/courier-pay/rules', {
      zone: 'default',
      vehicle: 'motorbike',
      base_pesewas: 1500,
      per_km_pesewas: 200,
      per_failed_attempt_pesewas: 500,
    });
    expect(set.status).toBe(201);
    await book(courier.id, `dlv_old_${courier.id}`);
    shift = 0;

    const { context, page, violations } = await phonePage(browser);
    await signInOnPhone(page, p, phone);
    const stream = page.waitForResponse((r) => r.url().endsWith('/courier/events/earnings'));
    await page.getByRole('link', { name: 'Earnings' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Earnings' }).waitFor();
    expect((await stream).status()).toBe(200);
    await page.getByText('No payout to your wallet yet.').waitFor();
    let navigations = 0;
    page.on('framenavigated', (f) => f === page.mainFrame() && navigations++);

    // A delivery is credited: today's total and the job list follow.
    const order = `dlv_new_${courier.id}`;
    const credited = Date.now();
    await book(courier.id, order);
    await expect
      .poll(() => page.locator('[data-total="today"]').textContent(), { timeout: 5000 })
      .toBe(cedis(2500));
    console.info(`a credited delivery on the earnings screen ${Date.now() - credited} ms after it`);
    await expect(page.locator('.earnings li').first().textContent()).resolves.toContain(order);

    // A payout run pays the older earning to the courier's wallet: it is listed, paid.
    await setDestination(p, 'courier', courier.id, {
      kind: 'mobile_money',
      network: 'mtn',
      number: '024 555 0404',
      name: 'Esi Owusu',
    });
    expect((await runPayouts(p)).status).toBe(202);
    const paid = page.locator('.payouts li').first();
    await expect.poll(() => paid.textContent(), { timeout: 5000 }).toContain('Paid');
    await expect(paid.textContent()).resolves.toContain(cedis(2500));
    expect(navigations).toBe(0);
    await expect(page.locator('[data-live-status]').textContent()).resolves.toMatch(/^Live/);
    await checkPhonePage(page, 'earnings-live');
    expect(violations).toEqual([]);
    await closePhone(context);
  });
});
