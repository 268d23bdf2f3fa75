import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { trackingAssets } from '../../../src/modules/delivery/tracking/map-assets.ts';
import { courierNear, PICKUP, productionOrder } from '../../dispatch/helpers.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { orderBody } from '../fixtures.ts';

const MAP_ENV = {
  TRACKING_MAP_TILES_URL: 'https://tile.example.org/{z}/{x}/{y}.png',
  TRACKING_MAP_ATTRIBUTION: '<b>OSM</b> & contributors',
};
const ASSETS = trackingAssets(true);

let withMap: TestPlatform;
let plain: TestPlatform;
let s: PartnerSetup;
let plainPartner: PartnerSetup;
beforeAll(async () => {
  [withMap, plain] = await Promise.all([startPlatform({ env: MAP_ENV }), startPlatform()]);
  [s, plainPartner] = await Promise.all([
    createPartner(withMap, { environment: 'production' }),
    createPartner(plain),
  ]);
});
afterAll(() => Promise.all([withMap?.close(), plain?.close()]));

async function trackingPath(setup: PartnerSetup, id: string): Promise<string> {
  const res = await setup.client.send<any>('POST', '/api/v1/delivery/orders.get', {
    body: { order_id: id },
  });
  return new URL(res.body.data.tracking_url).pathname;
}

describe('tracking page map (TRACKING_MAP_TILES_URL set)', () => {
  it('draws a map from our own files under a strict CSP that names the tile origin only', async () => {
    const id = await productionOrder(s);
    const res = await fetch(withMap.url + (await trackingPath(s, id)));
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https://tile.example.org; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    const html = await res.text();
    expect(html).toContain('id="map"');
    expect(html).toContain('data-tiles="https://tile.example.org/{z}/{x}/{y}.png"');
    for (const name of ['leaflet.css', 'tracking.css'])
      expect(html).toContain(`<link rel="stylesheet" href="${ASSETS.url(name)}">`);
    for (const name of ['leaflet.js', 'tracking-map.js', 'tracking-live.js'])
      expect(html).toContain(`<script src="${ASSETS.url(name)}" defer></script>`);
    // The map's legend names each marker.
    expect(html).toMatch(
      /<ul class="legend"[^>]*><li><span class="key pickup"><\/span>Pickup<\/li><li><span class="key dropoff"><\/span>Drop-off<\/li><li><span class="key courier"><\/span>Your courier<\/li><\/ul>/,
    );
    // No inline code at all: every script has a src, no <style>, no style attribute.
    expect(html).not.toMatch(/<script>|<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=/);
    expect(html).toContain('Map: &lt;b&gt;OSM&lt;/b&gt; &amp; contributors');
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="30"></noscript>');
    expect(html).toContain('This page updates itself as your delivery moves.');
    expect(html).toContain(`data-events="${await trackingPath(s, id)}/events"`);
    // The text alternative is still there, and still without the address.
    expect(html).toContain('Your delivery');
    expect(html).not.toMatch(/Oxford Street|241234567/);
  });

  it('serves Leaflet, its marker images and our files with a content hash, beside the dashboard assets', async () => {
    for (const [name, type] of [
      ['leaflet.js', 'text/javascript'],
      ['leaflet.css', 'text/css'],
      ['marker-icon.png', 'image/png'],
      ['tracking-map.js', 'text/javascript'],
      ['tracking.css', 'text/css'],
    ]) {
      const res = await fetch(withMap.url + ASSETS.url(name!));
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    expect(await (await fetch(withMap.url + ASSETS.url('tracking.css'))).text()).toContain(
      '.map{height:16rem',
    );
    expect((await withMap.fetch(`${withMap.url}/assets/nothing.0123456789ab.js`)).status).toBe(404);
    const dashboard = await (await withMap.fetch(`${withMap.url}/sign-in`)).text();
    const css = /href="(\/assets\/dashboard\.[0-9a-f]{12}\.css)"/.exec(dashboard)?.[1];
    expect(css).toBeDefined();
    expect((await fetch(withMap.url + css)).status).toBe(200);
  });

  it("answers the map's JSON with the stops and the courier while under way, and only the status once delivered", async () => {
    let now = Date.now();
    const id = await productionOrder(s);
    const path = await trackingPath(s, id);
    const json = async () => {
      const res = await withMap.fetch(`${withMap.url}${path}/map.json`);
      expect(res.headers.get('cache-control')).toBe('no-store');
      return res.json();
    };
    expect(await json()).toEqual({
      status: 'placed',
      moving: true,
      pickup: { lat: 5.549, lng: -0.209 },
      dropoff: { lat: 5.556, lng: -0.182 },
      courier: null,
      courier_text: null,
    });

    const courier = await courierNear(withMap, 2, now);
    const svc = withMap.app.platform.dispatch!.service;
    await svc.assign(id, courier.id);
    now += 1_000;
    await withMap.app.platform.couriers.reportPosition(courier.id, {
      lat: PICKUP.lat + 0.01,
      lng: PICKUP.lng,
      at: new Date(now),
    });
    const live = await json();
    expect(live.courier).toMatchObject({
      position: { lat: PICKUP.lat + 0.01, lng: PICKUP.lng },
      next_stop: 'pickup',
      eta: expect.any(String),
    });
    expect(live.courier_text).toEqual({
      stop: 'Your courier is on the way to collect your parcel.',
      eta: expect.stringMatching(/^Expected at the pickup around /),
      seen: expect.stringMatching(/^Last seen .* \(Accra time\)$/),
    });
    const page = await (await fetch(withMap.url + path)).text();
    expect(page).toContain(`<div data-field="stop">${live.courier_text.stop}</div>`);

    for (const status of ['accepted', 'pickedUp', 'in_transit', 'delivered'])
      await withMap.admin('POST', `/delivery/orders/${id}/status`, { status });
    expect(await json()).toEqual({ status: 'delivered', moving: false });
    const ended = await fetch(withMap.url + path);
    expect(ended.headers.get('content-security-policy')).not.toContain('tile.example.org');
    expect(await ended.text()).not.toMatch(/id="map"|<script|<link/);
    expect(
      (await withMap.fetch(`${withMap.url}/track/AAAAAAAAAAAAAAAAAAAAAAAA/map.json`)).status,
    ).toBe(404);
    expect((await withMap.fetch(`${withMap.url}/track/bad/map.json`)).status).toBe(404);
  });
});

describe('tracking page without TRACKING_MAP_TILES_URL', () => {
  it('has no map and no Leaflet, only the live script under the strict CSP; the map JSON and files do not exist', async () => {
    const created = await plainPartner.client.send<any>('POST', '/api/v1/delivery/orders.create', {
      body: orderBody(),
    });
    const path = await trackingPath(plainPartner, created.body.data.order_details.order_id);
    const res = await fetch(plain.url + path);
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    const html = await res.text();
    expect(html).not.toMatch(/id="map"|leaflet|class="legend"/);
    expect(html).toContain(`<script src="${ASSETS.url('tracking-live.js')}" defer></script>`);
    expect(html).not.toMatch(/<script>|<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=/);
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="30"></noscript>');
    expect((await plain.fetch(`${plain.url}${path}/map.json`)).status).toBe(404);
    expect((await fetch(plain.url + ASSETS.url('leaflet.js'))).status).toBe(404);
  });

  it('refuses to start with a bad tile setting, saying which and why', () => {
    expect(() =>
      loadConfig({
        TRACKING_MAP_TILES_URL: 'http://tile.example.org/{z}/{x}/{y}.png',
        TRACKING_MAP_ATTRIBUTION: 'OSM',
      }),
    ).toThrow(/invalid configuration: .*TRACKING_MAP_TILES_URL must be an https URL/);
    expect(() =>
      loadConfig({ TRACKING_MAP_TILES_URL: 'https://tile.example.org/{z}/{x}/{y}.png' }),
    ).toThrow(/TRACKING_MAP_ATTRIBUTION is required/);
  });
});
