import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { serviceMondayAhead } from '../../helpers/service-days.ts';

const OPS = '/api/v1/delivery/';
const ESTIMATE = `${OPS}orders.estimate`;

let p: TestPlatform;
let s: PartnerSetup;
let other: PartnerSetup;
let prod: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  s = await createPartner(p);
  other = await createPartner(p);
  prod = await createPartner(p, { environment: 'production' });
});
afterAll(() => p.close());

type Res = { status: number; body: any };
const call = (who: PartnerSetup, op: string, body: unknown): Promise<Res> =>
  who.client.send('POST', `${OPS}${op}`, { body });
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
// A Monday 08:00 a few weeks from now, in a working week with no public holiday.
const MONDAY = serviceMondayAhead();

async function newClock(who = s, frozen = MONDAY, name = 'rush hour'): Promise<string> {
  const res = await call(who, 'test_clocks.create', { frozen_time: iso(frozen), name });
  expect(res.status).toBe(201);
  return res.body.data.id;
}
const clocksOf = (appId: string) =>
  countRows(p, 'select count(*)::int as n from test_clocks where app_id = $1', [appId]);
const ordersOf = (appId: string) =>
  countRows(p, 'select count(*)::int as n from delivery_orders where app_id = $1', [appId]);

describe('test clocks', () => {
  it('creates, lists, gets and deletes a clock of the app', async () => {
    const created = await call(s, 'test_clocks.create', {
      frozen_time: iso(MONDAY),
      name: 'Friday rush',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'success',
      data: {
        object: 'test_clock',
        name: 'Friday rush',
        frozen_time: iso(MONDAY),
        status: 'ready',
      },
    });
    const id = created.body.data.id as string;
    expect(id).toMatch(/^clk_[0-9A-Z]{26}$/);
    expect((await call(s, 'test_clocks.get', { test_clock_id: id })).body.data).toEqual(
      created.body.data,
    );
    const listed = await call(s, 'test_clocks.list', {});
    expect(listed.status).toBe(200);
    expect(listed.body.data.test_clocks.map((c: { id: string }) => c.id)).toContain(id);
    // Another app of its own sees none of them.
    expect((await call(other, 'test_clocks.list', {})).body.data.test_clocks).toEqual([]);

    const deleted = await call(s, 'test_clocks.delete', { test_clock_id: id });
    expect(deleted.body).toMatchObject({ data: { id, object: 'test_clock', deleted: true } });
    expect((await call(s, 'test_clocks.get', { test_clock_id: id })).status).toBe(404);
    expect((await call(s, 'test_clocks.delete', { test_clock_id: id })).body.code).toBe(
      'TEST_CLOCK_NOT_FOUND',
    );
  });

  it('advances forward only, by at most 60 days at a time', async () => {
    const id = await newClock();
    const advance = (frozen: number) =>
      call(s, 'test_clocks.advance', { test_clock_id: id, frozen_time: iso(frozen) });
    const moved = await advance(MONDAY + 3_600_000);
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({
      frozen_time: iso(MONDAY + 3_600_000),
      status: 'ready',
    });
    for (const [to, code] of [
      [MONDAY, 'TEST_CLOCK_BACKWARDS'],
      [MONDAY + 3_600_000, 'TEST_CLOCK_BACKWARDS'],
      [MONDAY + 3_600_000 + 60 * DAY + 1, 'TEST_CLOCK_ADVANCE_TOO_FAR'],
    ] as const) {
      const res = await advance(to);
      expect([res.status, res.body.code]).toEqual([400, code]);
      expect(res.body.details[0].field).toBe('frozen_time');
    }
    expect((await call(s, 'test_clocks.get', { test_clock_id: id })).body.data.frozen_time).toBe(
      iso(MONDAY + 3_600_000),
    );
    expect((await advance(MONDAY + 3_600_000 + 60 * DAY)).status).toBe(200);
  });

  it('answers 404 for another app’s clock on every operation and when an order names it, writing nothing', async () => {
    const id = await newClock();
    for (const [op, body] of [
      ['test_clocks.get', { test_clock_id: id }],
      ['test_clocks.delete', { test_clock_id: id }],
      ['test_clocks.advance', { test_clock_id: id, frozen_time: iso(MONDAY + 60_000) }],
    ] as const) {
      const res = await call(other, op, body);
      expect([op, res.status, res.body.code]).toEqual([op, 404, 'TEST_CLOCK_NOT_FOUND']);
    }
    const before = await ordersOf(other.appId);
    const order = await call(other, 'orders.create', orderBody({ test_clock_id: id }));
    expect([order.status, order.body.code]).toEqual([404, 'TEST_CLOCK_NOT_FOUND']);
    expect(await ordersOf(other.appId)).toBe(before);
    expect((await call(s, 'test_clocks.get', { test_clock_id: id })).body.data.frozen_time).toBe(
      iso(MONDAY),
    );
  });

  it('refuses an order or estimate on a deleted or unknown clock (404), writing nothing', async () => {
    const id = await newClock();
    await call(s, 'test_clocks.delete', { test_clock_id: id });
    const before = await ordersOf(s.appId);
    for (const clockId of [id, 'clk_01KB3Z8M4Q2W7N5X9R0T6V1YCD', 'clk_x']) {
      const order = await call(s, 'orders.create', orderBody({ test_clock_id: clockId }));
      expect([order.status, order.body.code]).toEqual([404, 'TEST_CLOCK_NOT_FOUND']);
      const estimate = await s.client.send<any>('POST', ESTIMATE, {
        body: {
          delivery_location: { coordinates: { lat: 5.6, lng: -0.2 } },
          test_clock_id: clockId,
        },
      });
      expect(estimate.status).toBe(404);
    }
    expect(await ordersOf(s.appId)).toBe(before);
  });

  it("cancels an order on a clock at the clock's time; deleting the clock cancels the rest at ours", async () => {
    const id = await newClock();
    const order = async () =>
      (await call(s, 'orders.create', orderBody({ test_clock_id: id }))).body.data.order_details
        .order_id as string;
    const first = await order();
    const second = await order();
    const cancelled = await call(s, 'orders.cancel', { order_id: first });
    expect(cancelled.body.data.cancelled_at).toBe(iso(MONDAY));
    await call(s, 'test_clocks.delete', { test_clock_id: id });
    const later = (await call(s, 'orders.get', { order_id: second })).body.data;
    expect(later.status).toBe('cancelled');
    const at = Date.parse(later.status_details.timestamp);
    expect(Math.abs(at - Date.now())).toBeLessThan(60_000);
    const again = await call(s, 'orders.cancel', { order_id: second });
    expect([again.status, again.body.code]).toEqual([400, 'INVALID_ORDER_STATUS']);
  });

  it('answers 409 TEST_CLOCK_ADVANCING while an advance runs', async () => {
    const id = await newClock();
    await p.app.platform.db.query(
      `update test_clocks set status = 'advancing', advance_started_at = $2 where id = $1`,
      [id, new Date()],
    );
    const advance = await call(s, 'test_clocks.advance', {
      test_clock_id: id,
      frozen_time: iso(MONDAY + 60_000),
    });
    expect([advance.status, advance.body.code]).toEqual([409, 'TEST_CLOCK_ADVANCING']);
    expect((await call(s, 'test_clocks.delete', { test_clock_id: id })).status).toBe(409);
    const order = await call(s, 'orders.create', orderBody({ test_clock_id: id }));
    expect([order.status, order.body.code]).toEqual([409, 'TEST_CLOCK_ADVANCING']);
    expect((await call(s, 'test_clocks.get', { test_clock_id: id })).body.data.status).toBe(
      'advancing',
    );
  });

  it('keeps at most 100 clocks per app', async () => {
    const full = await createPartner(p);
    await p.app.platform.db.query(
      `insert into test_clocks (id, app_id, name, frozen_time, created_at)
       select 'clk_full' || g, $1, '', now(), now() from generate_series(1, 100) g`,
      [full.appId],
    );
    const res = await call(full, 'test_clocks.create', { frozen_time: iso(MONDAY) });
    expect([res.status, res.body.code]).toEqual([400, 'TEST_CLOCK_LIMIT_REACHED']);
    expect(await clocksOf(full.appId)).toBe(100);
  });

  it.each([
    [
      'a year 2 years ahead',
      { frozen_time: iso(Date.now() + 800 * DAY) },
      'TEST_CLOCK_TIME_OUT_OF_RANGE',
    ],
    ['year 0', { frozen_time: '0000-01-01T00:00:00Z' }, 'VALIDATION_ERROR'],
    ['no offset', { frozen_time: '2026-12-07T08:00:00' }, 'VALIDATION_ERROR'],
    ['a NUL byte', { frozen_time: `${iso(MONDAY)}\u0000` }, 'VALIDATION_ERROR'],
    ['a number', { frozen_time: MONDAY }, 'VALIDATION_ERROR'],
    [
      'a control character in the name',
      { frozen_time: iso(MONDAY), name: 'a\u0007b' },
      'VALIDATION_ERROR',
    ],
    ['a long name', { frozen_time: iso(MONDAY), name: 'x'.repeat(101) }, 'VALIDATION_ERROR'],
    ['an unknown field', { frozen_time: iso(MONDAY), owner: 'me' }, 'VALIDATION_ERROR'],
    ['no time', { name: 'x' }, 'VALIDATION_ERROR'],
  ])('refuses %s with 400 and writes nothing', async (_what, body, code) => {
    const before = await clocksOf(s.appId);
    const res = await call(s, 'test_clocks.create', body);
    expect([res.status, res.body.code]).toEqual([400, code]);
    expect(await clocksOf(s.appId)).toBe(before);
  });

  it.each([
    ['a malformed id', { test_clock_id: 'clk_../../x', frozen_time: '2026-12-07T08:00:00Z' }],
    [
      'an extreme year',
      { test_clock_id: 'clk_01KB3Z8M4Q2W7N5X9R0T6V1YCD', frozen_time: '9999-12-31T23:59:59Z' },
    ],
    ['no id', { frozen_time: '2026-12-07T08:00:00Z' }],
  ])('refuses an advance with %s (400)', async (_what, body) => {
    const res = await call(s, 'test_clocks.advance', body);
    expect(res.status === 400 || res.status === 404).toBe(true);
    expect(res.body.code).toMatch(/^(VALIDATION_ERROR|TEST_CLOCK_NOT_FOUND)$/);
  });
});

describe('test clocks and production keys', () => {
  it('answers 403 STAGING_KEY_REQUIRED on every test clock operation', async () => {
    const id = await newClock();
    for (const [op, body] of [
      ['test_clocks.create', { frozen_time: iso(MONDAY) }],
      ['test_clocks.list', {}],
      ['test_clocks.get', { test_clock_id: id }],
      ['test_clocks.advance', { test_clock_id: id, frozen_time: iso(MONDAY + 60_000) }],
      ['test_clocks.delete', { test_clock_id: id }],
    ] as const) {
      const res = await call(prod, op, body);
      expect([op, res.status, res.body.code]).toEqual([op, 403, 'STAGING_KEY_REQUIRED']);
    }
    expect(await clocksOf(prod.appId)).toBe(0);
  });

  it('never attaches a production order or estimate to a clock (400), writing nothing', async () => {
    const id = await newClock();
    const before = await ordersOf(prod.appId);
    const order = await call(prod, 'orders.create', orderBody({ test_clock_id: id }));
    expect([order.status, order.body.code]).toEqual([400, 'TEST_CLOCK_NOT_ALLOWED']);
    expect(order.body.details).toEqual([
      { field: 'test_clock_id', issue: 'is for staging keys only' },
    ]);
    const estimate = await prod.client.send<any>('POST', ESTIMATE, {
      body: { delivery_location: { coordinates: { lat: 5.6, lng: -0.2 } }, test_clock_id: id },
    });
    expect([estimate.status, estimate.body.code]).toEqual([400, 'TEST_CLOCK_NOT_ALLOWED']);
    expect(await ordersOf(prod.appId)).toBe(before);
    expect(
      await countRows(p, 'select count(*)::int as n from delivery_quotes where app_id = $1', [
        prod.appId,
      ]),
    ).toBe(0);
  });

  it('answers a key without the write scope 403 INSUFFICIENT_SCOPE', async () => {
    const reader = await createPartner(p, { scopes: ['delivery:read'] });
    const res = await call(reader, 'test_clocks.create', { frozen_time: iso(MONDAY) });
    expect([res.status, res.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    expect((await call(reader, 'test_clocks.list', {})).status).toBe(200);
  });

  it('answers an unsigned request 401', async () => {
    const res = await p.fetch(`${p.url}${OPS}test_clocks.list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': s.apiKey },
      body: '{}',
    });
    expect(res.status).toBe(401);
  });
});
