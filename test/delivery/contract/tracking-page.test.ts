import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { orderBody } from '../fixtures.ts';

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform();
  s = await createPartner(p);
});
afterAll(() => p.close());

async function trackingUrl(reference = 'TRK-1001'): Promise<{ url: string; id: string }> {
  const created = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
    body: orderBody({ order_reference: reference, item: 'Kente cloth <b>bundle</b>' }),
  });
  const id = created.body.data.order_details.order_id;
  const details = await s.client.send<any>('POST', '/api/v1/delivery/orders.get', {
    body: { order_id: id },
  });
  // The link carries the configured public base URL; the test server listens elsewhere.
  return { url: p.url + new URL(details.body.data.tracking_url).pathname, id };
}

describe('public tracking page', () => {
  it('shows status, timeline, item and the last four digits, never the full phone or address', async () => {
    const { url, id } = await trackingUrl();
    await p.admin('POST', `/delivery/orders/${id}/status`, { status: 'accepted' });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    expect(html).toContain('TRK-1001');
    expect(html).toContain('Kente cloth &lt;b&gt;bundle&lt;/b&gt;');
    expect(html).toContain('ending in 4567');
    for (const title of ['Order placed', 'Picked up', 'Delivered']) expect(html).toContain(title);
    expect(html).not.toMatch(/241234567|0241234567|Oxford Street/);
    // Only our own files (the live script and stylesheet), nothing from elsewhere.
    expect(html).not.toMatch(/https?:\/\//);
    for (const [, src] of html.matchAll(/(?:src|href)="([^"]+)"/g))
      expect(src).toMatch(/^\/(assets|track)\//);
  });

  it('reloads itself every 30 seconds without script while the delivery is under way, and stops once it has ended', async () => {
    const { url, id } = await trackingUrl('TRK-1002');
    const refresh = /<noscript><meta http-equiv="refresh" content="30"><\/noscript>/;
    expect(await (await fetch(url)).text()).toMatch(refresh);
    for (const status of ['accepted', 'pickedUp', 'in_transit', 'delivered'])
      await p.admin('POST', `/delivery/orders/${id}/status`, { status });
    const ended = await (await fetch(url)).text();
    expect(ended).toContain('Delivered');
    expect(ended).not.toMatch(/http-equiv="refresh"|updates itself|<script|data-events/);
  });

  it('answers 404 for an unknown or malformed token', async () => {
    expect((await p.fetch(`${p.url}/track/AAAAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
    expect((await p.fetch(`${p.url}/track/..%2F..`)).status).toBe(404);
  });
});
