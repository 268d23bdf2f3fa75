import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOffDuty, PICKUP, productionOrder, ZONE } from '../../dispatch/helpers.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import {
  browserAvailable,
  contrastRatios,
  horizontalOverflow,
  launchBrowser,
} from '../../helpers/browser.ts';
import { enrolledOperator, OPERATOR_PASSWORD, TOTP_STEP_MS } from '../../helpers/console.ts';
import { newPhone } from '../../helpers/courier.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { ROOT } from '../../helpers/process.ts';
import { codeFor } from '../../operators/helpers.ts';
import { runPayouts, setDestination } from '../../payouts/helpers.ts';

/** Screenshots to look at (gitignored). */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'console');
const HOUR = 3_600_000;

describe.runIf(browserAvailable)('live console pages at 390 px in headless Chromium', () => {
  let p: TestPlatform;
  let s: PartnerSetup;
  let browser: Browser;
  // The server's clock: real time, moved a TOTP step per operator code (and back for an old earning).
  let shift = 0;
  const fake = new FakeTransfers();
  beforeAll(async () => {
    [p, browser] = await Promise.all([
      startPlatform({
        clock: () => Date.now() + shift,
        transfers: fake,
        env: { PAYOUT_INTERVAL_MS: '0', PAYOUT_COOLING_HOURS: '0' },
      }),
      launchBrowser(),
    ]);
    s = await createPartner(p, { environment: 'production' });
  });
  afterAll(async () => {
    await browser?.close();
    await p?.close();
  });

  /** An operator signed in on a 390 px page, by keyboard, with CSP violations collected. */
  async function signedIn(roles: Array<'support' | 'finance'>) {
    const op = await enrolledOperator(p, roles, Date.now() + (shift += TOTP_STEP_MS));
    shift += TOTP_STEP_MS;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on(
      'console',
      (m) => m.text().includes('Content Security Policy') && violations.push(m.text()),
    );
    await page.goto(`${p.url}/console/sign-in`);
    await page.getByLabel('Email').fill(op.email);
    await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
    await page.getByLabel('Authenticator code').fill(codeFor(op.secret, Date.now() + shift));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Activation queue' }).waitFor();
    let navigations = 0;
    page.on('framenavigated', (f) => f === page.mainFrame() && navigations++);
    return { context, page, violations, navigations: () => navigations };
  }

  async function shoot(page: Page, name: string) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}-390.png`), fullPage: true });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect((await contrastRatios(page, 'main *')).filter((t) => t.ratio < 4.5)).toEqual([]);
  }

  /** Books a delivery's pay for the courier at the server's time now. */
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

  it("shows a text recorded for an order, then the provider's delivery report, without a reload", async () => {
    await allOffDuty(p);
    const courier = await p.app.platform.couriers.create({
      name: 'Kofi Boateng',
      phone: newPhone(),
      vehicle: 'motorbike',
      zones: [ZONE],
    });
    await p.app.platform.couriers.setDuty(courier.id, true);
    await p.app.platform.couriers.reportPosition(courier.id, { ...PICKUP, at: new Date() });
    const order = await productionOrder(s);
    const { context, page, violations, navigations } = await signedIn(['support']);
    const stream = page.waitForResponse((r) =>
      r.url().endsWith(`/console/events/orders/${order}/texts`),
    );
    await page.goto(`${p.url}/console/orders/${order}`);
    expect((await stream).status()).toBe(200);
    await page.locator('#texts').getByText('None').waitFor();
    const before = navigations();

    // A courier is given the job: the recipient's delivery code is texted and listed at once.
    const assigned = Date.now();
    await p.app.platform.dispatch!.service.assign(order, courier.id);
    const row = page.locator('#texts tbody tr').first();
    await expect.poll(() => row.textContent(), { timeout: 5000 }).toMatch(/^assigned.*sms.*sent/);
    console.info(`the assignment's text on the order page ${Date.now() - assigned} ms after it`);
    const [sent] = await p.app.platform.db.query<{ provider_message_id: string }>(
      'select provider_message_id from recipient_messages where order_id = $1',
      [order],
    );
    // The SMS provider reports it delivered: the row says so.
    const reported = Date.now();
    await p.app.platform.messages!.service.report(sent!.provider_message_id, 'delivered', '');
    await expect.poll(() => row.textContent(), { timeout: 5000 }).toContain('delivered');
    console.info(`the delivery report on the order page ${Date.now() - reported} ms after it`);
    expect(navigations()).toBe(before);
    await expect(page.locator('[data-live-status]').textContent()).resolves.toMatch(/^Live/);
    await shoot(page, 'order-texts-live');
    expect(violations).toEqual([]);
    await context.close();
  });

  it('shows a new earning and a new pay run on the courier pay page without a reload', async () => {
    const courier = await p.app.platform.couriers.create({
      name: 'Yaw Darko',
      phone: newPhone(),
      vehicle: 'motorbike',
    });
    const { context, page, violations, navigations } = await signedIn(['finance']);
    const stream = page.waitForResponse((r) => r.url().endsWith('/console/events/pay'));
    // Reached by keyboard: the console's navigation, then the couriers page's link.
    const couriers = page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Couriers' });
    await couriers.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Courier pay: rules and policy' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Courier pay' }).waitFor();
    expect((await stream).status()).toBe(200);
    const before = navigations();

    // Earned two days ago (before the last payout cut-off), by the rule then: listed at once.
    shift -= 50 * HOUR;
    const rule = await p.admin('POST', '/courier-pay/rules', {
      zone: 'default',
      vehicle: 'motorbike',
      base_pesewas: 1500,
      per_km_pesewas: 200,
      per_failed_attempt_pesewas: 500,
    });
    expect(rule.status).toBe(201);
    const earned = await book(courier.id, `dlv_pay_${courier.id}`);
    shift += 50 * HOUR;
    const earnings = page.locator('#earnings tbody tr');
    await expect
      .poll(() => earnings.first().textContent(), { timeout: 5000 })
      .toContain('Yaw Darko');
    await expect(earnings.first().textContent()).resolves.toContain('GHS 25.00');

    // A payout run pays the courier: it is listed at once, done.
    await setDestination(p, 'courier', courier.id, {
      kind: 'mobile_money',
      network: 'mtn',
      number: '024 555 0303',
      name: 'Yaw Darko',
    });
    const run = await runPayouts(p);
    expect(run.status).toBe(202);
    const paid = await p.admin(
      'GET',
      `/payouts?run_id=${run.body.run_id}&payee=courier:${courier.id}`,
    );
    expect(paid.body.data[0]).toMatchObject({ amount_pesewas: earned!.amount_pesewas });
    const listed = page.locator(`a[href="/console/payouts/runs/${run.body.run_id}"]`);
    await listed.waitFor({ timeout: 5000 });
    await expect
      .poll(() => page.locator('tr', { has: listed }).textContent(), { timeout: 5000 })
      .toContain('done');
    expect(navigations()).toBe(before);
    await shoot(page, 'courier-pay-live');
    expect(violations).toEqual([]);
    await context.close();
  });
});
