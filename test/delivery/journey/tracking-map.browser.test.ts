import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courierNear, PICKUP, productionOrder } from '../../dispatch/helpers.ts';
import { browserAvailable, horizontalOverflow, launchBrowser } from '../../helpers/browser.ts';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { rgbPng } from '../../helpers/png.ts';

/** A 16×16 PNG: pale land with a darker edge, so that the screenshot shows each tile. */
const tilePng = () =>
  rgbPng(16, 16, (x, y) => (x === 0 || y === 0 ? [176, 196, 160] : [226, 236, 214]));

describe.runIf(browserAvailable)('tracking page map in headless Chromium', () => {
  const PNG = tilePng();
  const tileRequests: string[] = [];
  let tiles: Server;
  let tileOrigin: string;
  let p: TestPlatform;
  let browser: Browser;
  beforeAll(async () => {
    // A local tile server: plain http is accepted for 127.0.0.1 only (see TRACKING_MAP_TILES_URL).
    tiles = createServer((req, res) => {
      tileRequests.push(req.url ?? '');
      if (!/^\/\d+\/\d+\/\d+\.png$/.test(req.url ?? '')) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    tileOrigin = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}`;
    [p, browser] = await Promise.all([
      startPlatform({
        env: {
          TRACKING_MAP_TILES_URL: `${tileOrigin}/{z}/{x}/{y}.png`,
          TRACKING_MAP_ATTRIBUTION: '© Test tiles',
        },
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await p?.close();
    await new Promise((resolve) => tiles?.close(resolve));
  });

  it('draws tiles, the stops and the courier at 390 px without a CSP violation, and follows the courier as its stream pushes each move', async () => {
    let now = Date.now();
    const s = await createPartner(p, { environment: 'production' });
    const id = await productionOrder(s);
    const courier = await courierNear(p, 2, now);
    await p.app.platform.dispatch!.service.assign(id, courier.id);
    now += 1_000;
    await p.app.platform.couriers.reportPosition(courier.id, {
      lat: PICKUP.lat + 0.012,
      lng: PICKUP.lng + 0.004,
      at: new Date(now),
    });
    const details = await s.client.send<any>('POST', '/api/v1/delivery/orders.get', {
      body: { order_id: id },
    });
    const url = p.url + new URL(details.body.data.tracking_url).pathname;

    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems: string[] = [];
    // Reported by the page itself: every CSP violation (a blocked inline style or script, an image from elsewhere).
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    // The browser's own favicon request (the platform has none) is not the page's doing.
    page.on(
      'console',
      (m) =>
        m.type() === 'error' &&
        !m.location().url.endsWith('/favicon.ico') &&
        problems.push(`${m.text()} ${m.location().url}`),
    );
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
    const origins = new Set<string>();
    page.on('request', (r) => origins.add(new URL(r.url()).origin));

    expect((await page.goto(url))?.status()).toBe(200);
    await page.waitForSelector('#map[data-drawn="3"]');
    await page.waitForFunction(
      () => document.querySelectorAll('#map img.leaflet-tile-loaded').length > 0,
    );
    const marker = page.locator('#map img.leaflet-marker-icon[alt="Your courier"]');
    await expect.poll(() => marker.isVisible()).toBe(true);
    expect(await page.locator('#map path.leaflet-interactive').count()).toBe(2);
    expect(tileRequests.length).toBeGreaterThan(0);
    expect([...origins].sort()).toEqual([p.url, tileOrigin].sort());
    expect(await horizontalOverflow(page)).toBe(0);
    // The words are still there for whoever cannot use the map, with the courier's first name and vehicle, and a legend.
    const text = await page.locator('main').innerText();
    expect(text).toContain('Your courier is on the way to collect your parcel.');
    expect(text).toContain(`${courier.name.split(' ')[0]}, on a motorbike`);
    expect(text).toContain('Map: © Test tiles');
    expect(await page.locator('.legend li').allInnerTexts()).toEqual([
      'Pickup',
      'Drop-off',
      'Your courier',
    ]);
    // One expected time, the promised one while the courier is on the way to the pickup.
    expect(text.match(/Expected/g)).toHaveLength(1);
    mkdirSync('test-results/tracking', { recursive: true });
    await page.screenshot({ path: 'test-results/tracking/map-phone.png', fullPage: true });

    // The courier moves; the page's event stream moves the marker at once, without a reload.
    const before = await marker.boundingBox();
    await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));
    // Later than the first report, also when the page came up within the second it was dated ahead.
    now = Math.max(Date.now(), now + 1_000);
    await p.app.platform.couriers.reportPosition(courier.id, {
      lat: PICKUP.lat + 0.004,
      lng: PICKUP.lng + 0.001,
      at: new Date(now),
    });
    const moved = Date.now();
    await expect
      .poll(async () => (await marker.boundingBox())?.y, { timeout: 10_000, interval: 100 })
      .not.toBe(before?.y);
    console.log(`tracking map: the courier's move drawn ${Date.now() - moved} ms after the report`);
    expect(
      await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce),
    ).toBe(true);

    // The parcel is picked up: the page reloads itself once to say so (a new status), then shows the live ETA.
    await p.app.platform.dispatch!.service.arrivedAtPickup(courier.id, id);
    await p.app.platform.dispatch!.service.pickedUp(courier.id, id);
    await page.waitForFunction(
      () => !(window as unknown as { loadedOnce?: boolean }).loadedOnce,
      undefined,
      { timeout: 10_000 },
    );
    await expect
      .poll(() => page.locator('[data-field="eta"]').innerText())
      .toMatch(/^Expected around /);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
