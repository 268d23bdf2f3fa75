import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOffDuty, PICKUP, productionOrder } from '../../dispatch/helpers.ts';
import {
  browserAvailable,
  contrastRatios,
  horizontalOverflow,
  launchBrowser,
} from '../../helpers/browser.ts';
import { enrolledOperator, OPERATOR_PASSWORD, TOTP_STEP_MS } from '../../helpers/console.ts';
import { signedInCourier } from '../../helpers/courier.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { ROOT } from '../../helpers/process.ts';
import type { WebClient } from '../../helpers/web.ts';
import { codeFor } from '../../operators/helpers.ts';

/** Screenshots to look at (gitignored). */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'console');

/** A position report through the courier app's own endpoint, as the phone sends it. */
async function report(
  web: WebClient,
  csrf: string,
  at: number,
  where: { lat: number; lng: number },
) {
  const res = await web.request('POST', '/courier/actions', {
    body: JSON.stringify({
      id: randomUUID(),
      kind: 'position',
      at: new Date(at).toISOString(),
      payload: where,
    }),
    headers: { 'content-type': 'application/json', origin: web.base, 'x-csrf-token': csrf },
  });
  expect(res.status, res.text).toBe(200);
}

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({
    path: join(SHOTS, `${name}-${page.viewportSize()!.width}.png`),
    fullPage: true,
  });
}

describe.runIf(browserAvailable)("the dispatcher's live console in headless Chromium", () => {
  let p: TestPlatform;
  let s: PartnerSetup;
  let browser: Browser;
  // Operator codes come from the server's clock, moved one TOTP step at a time.
  let now = Date.now();
  beforeAll(async () => {
    [p, browser] = await Promise.all([startPlatform({ clock: () => now }), launchBrowser()]);
    s = await createPartner(p, { environment: 'production' });
  });
  afterAll(async () => {
    await browser?.close();
    await p?.close();
  });

  it('shows a courier move on the map within 5 s and a new order without a reload; assigns from the map; alerts a late order; whole at 1280 px, no sideways scroll at 390 px', async () => {
    await allOffDuty(p);
    const courier = await signedInCourier(p, 'Ama Mensah');
    await p.app.platform.couriers.setDuty(courier.id, true);
    await report(courier.web, courier.csrf, now, PICKUP);
    const op = await enrolledOperator(p, ['support'], (now += TOTP_STEP_MS));
    now += TOTP_STEP_MS;

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on(
      'console',
      (m) => m.text().includes('Content Security Policy') && violations.push(m.text()),
    );
    await page.goto(`${p.url}/console/sign-in`);
    await page.getByLabel('Email').fill(op.email);
    await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
    await page.getByLabel('Authenticator code').fill(codeFor(op.secret, now));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Activation queue' }).waitFor();

    const streamOpen = page.waitForResponse((r) => r.url().endsWith('/console/events/dispatch'));
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Dispatch' })
      .click();
    await page.getByRole('heading', { name: 'Dispatch' }).waitFor();
    expect((await streamOpen).status()).toBe(200);
    const pin = page.locator(`.pin.courier[data-id="${courier.id}"]`);
    await expect.poll(() => pin.getAttribute('data-lat')).toBe(String(PICKUP.lat));
    let navigations = 0;
    page.on('framenavigated', (f) => f === page.mainFrame() && navigations++);

    // The courier moves: the phone reports, the dispatcher's map follows.
    const moved = { lat: 5.5605, lng: -0.2 };
    const reported = Date.now();
    await report(courier.web, courier.csrf, (now += 1000), moved);
    await expect
      .poll(() => pin.getAttribute('data-lat'), { timeout: 5000 })
      .toBe(String(moved.lat));
    console.info(`courier moved on the dispatch map ${Date.now() - reported} ms after the report`);
    await expect(
      page.locator(`tr[data-courier="${courier.id}"] time[data-age]`).textContent(),
    ).resolves.toMatch(/ago$/);

    // A partner places an order: it is listed and drawn without a reload.
    const placed = Date.now();
    const order = await productionOrder(s);
    await page.locator(`tr[data-order="${order}"]`).waitFor({ timeout: 5000 });
    await page.locator(`.pin.order[data-id="${order}"]`).waitFor({ timeout: 5000 });
    console.info(`new order on the dispatch board ${Date.now() - placed} ms after it was placed`);
    expect(navigations).toBe(0);
    await expect(page.getByText('Ama Mensah').first().getAttribute('title')).resolves.toBe(
      courier.id,
    );

    // Whole at 1280 px: nothing scrolls sideways, no table is cut.
    await shoot(page, 'dispatch');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const cut = await page.evaluate(
      () =>
        [...document.querySelectorAll('.table')].filter((t) => t.scrollWidth > t.clientWidth + 1)
          .length,
    );
    expect(cut).toBe(0);
    const nav = await page.getByRole('navigation', { name: 'Console' }).boundingBox();
    expect(nav!.x).toBeLessThan(300);
    expect((await page.locator('main').boundingBox())!.width).toBeGreaterThan(900);
    expect((await contrastRatios(page, 'main *')).filter((t) => t.ratio < 4.5)).toEqual([]);
    await shoot(page, 'dispatch');

    // Assigned from the order's map popup, with the list's own form.
    await page.locator(`.pin.order[data-id="${order}"]`).click();
    const popup = page.locator('.leaflet-popup-content');
    await popup.getByText('Waiting for a courier').waitFor();
    await popup.getByRole('combobox').selectOption(courier.id);
    await popup.getByRole('button', { name: 'Assign' }).click();
    await page.getByText('Assigned.').waitFor();
    await page.locator(`tr[data-order="${order}"]`).getByText('Ama Mensah').waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${p.url}/console/dispatch`);
    await page.locator(`.pin.order[data-id="${order}"]`).waitFor();
    // Nobody takes a new order in time: the page raises the alert without a reload.
    const late = await productionOrder(s);
    await page.locator(`tr[data-order="${late}"]`).waitFor({ timeout: 5000 });
    now += 11 * 60_000;
    expect((await p.app.platform.dispatch!.offers.tick()).late).toContain(late);
    await page
      .getByRole('alert')
      .filter({ hasText: '1 order late' })
      .first()
      .waitFor({ timeout: 5000 });
    await page.locator(`tr.late[data-order="${late}"]`).waitFor({ timeout: 5000 });
    await page.locator(`.pin.order.late[data-id="${late}"]`).waitFor({ timeout: 5000 });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    // Scrolled to the end, the page's last line sits above the alert, not under it.
    const cover = await page.evaluate(() => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      const last = document.querySelector('main')!.lastElementChild!.getBoundingClientRect();
      return last.bottom - document.querySelector('.toast')!.getBoundingClientRect().top;
    });
    expect(cover).toBeLessThanOrEqual(0);
    await shoot(page, 'dispatch');

    await page.goto(`${p.url}/console/orders`);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shoot(page, 'orders');
    await page.setViewportSize({ width: 1280, height: 900 });
    await shoot(page, 'orders');
    const orders = await page.evaluate(
      () =>
        [...document.querySelectorAll('.table')].filter((t) => t.scrollWidth > t.clientWidth + 1)
          .length,
    );
    expect(orders).toBe(0);
    expect(violations).toEqual([]);
    await context.close();
  });
});
