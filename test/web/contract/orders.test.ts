import { PartnerClient } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { dashboardKey, verifiedOwner, type WebClient } from '../../helpers/web.ts';

const orderIds = (html: string) =>
  [...html.matchAll(/href="\/dashboard\/orders\/(dlv_[0-9A-Z]{26})"/g)].map((m) => m[1]!);
const nextLink = (html: string) =>
  /href="(\/dashboard\/orders\?[^"]*after=[^"]+)">Older orders/
    .exec(html)?.[1]
    ?.replace(/&amp;/g, '&');

describe('dashboard orders: keyset pages, filters, the order page', () => {
  let p: TestPlatform;
  let web: WebClient;
  const created: string[] = [];
  let client: PartnerClient;

  beforeAll(async () => {
    p = await startPlatform();
    ({ web } = await verifiedOwner(p));
    const key = await dashboardKey(web);
    client = new PartnerClient({
      apiKey: key.apiKey,
      signingSecret: key.signingSecret,
      baseUrl: p.url,
    });
    for (let i = 0; i < 30; i++) {
      const res = await client.send<any>('POST', '/api/v1/delivery/orders.create', {
        body: orderBody({ order_reference: `INV-${String(i).padStart(3, '0')}` }),
      });
      created.push(res.body.data.order_details.order_id);
    }
    await p.admin('POST', `/delivery/orders/${created[3]}/status`, { status: 'accepted' });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('pages newest first, 25 at a time, without gaps or repeats, even when orders arrive between pages', async () => {
    const first = await web.get('/dashboard/orders');
    const page1 = orderIds(first.text);
    expect(page1).toEqual(created.slice(5).reverse());
    const next = nextLink(first.text)!;
    expect(next).toContain(`after=${page1.at(-1)}`);
    // A new order after page 1 was read does not shift page 2 (OFFSET would repeat a row).
    await client.send('POST', '/api/v1/delivery/orders.create', {
      body: orderBody({ order_reference: 'LATE-1' }),
    });
    const page2 = orderIds((await web.get(next)).text);
    expect(page2).toEqual(created.slice(0, 5).reverse());
    expect(nextLink((await web.get(next)).text)).toBeUndefined();
  });

  it('filters by status, environment and part of the reference, and refuses values no form offers', async () => {
    expect(orderIds((await web.get('/dashboard/orders?status=accepted')).text)).toEqual([
      created[3],
    ]);
    expect(orderIds((await web.get('/dashboard/orders?environment=production')).text)).toEqual([]);
    expect(orderIds((await web.get('/dashboard/orders?q=inv-01')).text)).toEqual(
      created.slice(10, 20).reverse(),
    );
    // LIKE wildcards are searched for literally.
    expect(orderIds((await web.get('/dashboard/orders?q=%25')).text)).toEqual([]);
    expect((await web.get('/dashboard/orders?status=lost')).status).toBe(400);
    expect((await web.get('/dashboard/orders?after=1%27%20or%201=1')).status).toBe(400);
    expect((await web.get('/dashboard/orders?q=%00')).status).toBe(400);
  });

  it('shows an order with its timeline and tracking link', async () => {
    const page = await web.get(`/dashboard/orders/${created[3]}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('INV-003');
    expect(page.text).toMatch(/<li class="done">Order placed/);
    expect(page.text).toMatch(/<li class="done">[^<]*[Aa]ccepted/);
    const tracking = /id="tracking-url" href="([^"]+)"/.exec(page.text)![1]!;
    expect((await fetch(tracking)).status).toBe(200);
    expect((await web.get('/dashboard/orders/dlv_00000000000000000000000000')).status).toBe(404);
  });

  it('shows a returned order with why it could not be delivered, its attempts, and the return in the timeline', async () => {
    const id = created[5]!;
    for (const st of ['accepted', 'pickedUp', 'in_transit'])
      await p.admin('POST', `/delivery/orders/${id}/status`, { status: st });
    await p.admin('POST', `/delivery/orders/${id}/status`, {
      status: 'returning',
      failure_reason: 'wrong_address',
      note: 'No such house <number>',
    });
    await p.admin('POST', `/delivery/orders/${id}/status`, { status: 'returned' });
    const page = await web.get(`/dashboard/orders/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Could not deliver');
    expect(page.text).toContain('Wrong address: No such house &lt;number&gt; (1 delivery attempt)');
    expect(page.text).toMatch(/<li class="">Delivered/);
    expect(page.text).toMatch(/<li class="stop">Returning to the pickup point/);
    expect(page.text).toMatch(/<li class="stop">Returned to the pickup point/);
    expect(page.text).not.toContain('id="return-fee"');
    const filtered = await web.get('/dashboard/orders?status=returned');
    expect(orderIds(filtered.text)).toEqual([id]);
  });
});

describe('dashboard orders: the created date filter (UTC days, which are Accra days) with keyset pages', () => {
  let p: TestPlatform;
  let web: WebClient;
  const inside: string[] = [];
  const outside: string[] = [];

  beforeAll(async () => {
    p = await startPlatform();
    ({ web } = await verifiedOwner(p));
    const key = await dashboardKey(web);
    const client = new PartnerClient({
      apiKey: key.apiKey,
      signingSecret: key.signingSecret,
      baseUrl: p.url,
    });
    const make = async (ref: string, createdAt: string) => {
      const res = await client.send<any>('POST', '/api/v1/delivery/orders.create', {
        body: orderBody({ order_reference: ref }),
      });
      const id = res.body.data.order_details.order_id as string;
      await p.app.platform.db.query('update delivery_orders set created_at = $2 where id = $1', [
        id,
        createdAt,
      ]);
      return id;
    };
    // The edges: the last second before the first day and the first instant after the last day.
    outside.push(await make('EDGE-BEFORE', '2026-03-09T23:59:59.999Z'));
    for (let i = 0; i < 30; i++)
      inside.push(
        await make(
          `IN-${i}`,
          new Date(Date.parse('2026-03-10T00:00:00Z') + i * 90 * 60_000).toISOString(),
        ),
      );
    outside.push(await make('EDGE-AFTER', '2026-03-12T00:00:00Z'));
  });
  afterAll(async () => {
    await p?.close();
  });

  it('keeps only orders created from the first day to the end of the last, and keeps the dates across pages', async () => {
    expect(inside.at(-1)! > inside[0]!).toBe(true);
    const first = await web.get('/dashboard/orders?from=2026-03-10&to=2026-03-11');
    expect(first.status).toBe(200);
    const page1 = orderIds(first.text);
    expect(page1).toEqual(inside.slice(5).reverse());
    const next = nextLink(first.text)!;
    expect(next).toContain('from=2026-03-10');
    expect(next).toContain('to=2026-03-11');
    const second = await web.get(next);
    expect(orderIds(second.text)).toEqual(inside.slice(0, 5).reverse());
    expect(second.text).toContain(
      'href="/dashboard/orders?from=2026-03-10&amp;to=2026-03-11">First page',
    );
    // The form shows the chosen dates.
    expect(first.text).toContain('name="from" type="date" value="2026-03-10"');
    // One side only; a single day.
    expect(orderIds((await web.get('/dashboard/orders?from=2026-03-12')).text)).toEqual([
      outside[1],
    ]);
    expect(orderIds((await web.get('/dashboard/orders?to=2026-03-09')).text)).toEqual([outside[0]]);
    expect(
      orderIds((await web.get('/dashboard/orders?from=2026-03-11&to=2026-03-11')).text),
    ).toEqual(inside.slice(16).reverse());
  });

  it('refuses dates no date field sends, and a range that ends before it starts', async () => {
    for (const q of [
      'from=2026-02-30',
      'to=yesterday',
      'from=2026-3-1',
      "from=2026-03-10'--",
      'from=0001-01-01',
      'to=2026-03-10%00',
    ]) {
      const res = await web.get(`/dashboard/orders?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.text).toContain('must be a day like');
    }
    const backwards = await web.get('/dashboard/orders?from=2026-03-11&to=2026-03-10');
    expect(backwards.status).toBe(400);
    expect(backwards.text).toContain('must not be after');
  });
});
