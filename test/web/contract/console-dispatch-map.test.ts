import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';

describe('the dispatch map with a tile server configured (TRACKING_MAP_TILES_URL)', () => {
  const clock = { now: Date.now() };
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startPlatform({
      socket: false,
      clock: () => clock.now,
      env: {
        TRACKING_MAP_TILES_URL: 'https://tile.example.org/{z}/{x}/{y}.png',
        TRACKING_MAP_ATTRIBUTION: '<b>OSM</b> & contributors',
      },
    });
  });
  afterAll(async () => {
    await p?.close();
  });

  it("adds the tile server's origin to the dispatch page's img-src only, escapes the credit and serves Leaflet and the scripts", async () => {
    const { web } = await signedInOperator(p, ['finance'], () => (clock.now += TOTP_STEP_MS));
    const page = await web.get('/console/dispatch');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain(
      "img-src 'self' data: https://tile.example.org;",
    );
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self';");
    expect(page.text).toContain('data-tiles="https://tile.example.org/{z}/{x}/{y}.png"');
    expect(page.text).toContain('Map: &lt;b&gt;OSM&lt;/b&gt; &amp; contributors');
    expect(page.text).toContain('data-live="/console/events/dispatch"');
    const scripts = [...page.text.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.some((s) => s.includes('console-leaflet.'))).toBe(true);
    for (const src of scripts) {
      const asset = await web.get(src);
      expect([src, asset.status]).toEqual([src, 200]);
      expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    }
    // Other console pages keep the plain policy.
    const orders = await web.get('/console/orders');
    expect(orders.headers.get('content-security-policy')).toContain("img-src 'self' data:;");
  });
});
