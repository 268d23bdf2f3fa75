import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerClient, type CreateOrderRequest } from '@partner-platform/sdk';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { EAST_LEGON, orderBody } from '../fixtures.ts';

const CREATE = '/api/v1/delivery/orders.create';
const BULK = '/api/v1/delivery/orders.create_bulk';

// Monday 30 March 2026, 09:00 in Accra (UTC+0); the server and the signing client share the clock.
const now = Date.parse('2026-03-30T09:00:00Z');
const clock = () => now;

let p: TestPlatform;
let s: PartnerSetup;
let client: PartnerClient;

beforeAll(async () => {
  p = await startPlatform({ socket: false, clock });
  s = await createPartner(p);
  client = new PartnerClient({
    apiKey: s.apiKey,
    signingSecret: s.signingSecret,
    baseUrl: p.url,
    fetch: p.fetch,
    now: clock,
  });
});
afterAll(() => p.close());

type Res = { status: number; body: any };
const send = (path: string, body: unknown): Promise<Res> => client.send('POST', path, { body });
const written = (reference: string) =>
  countRows(
    p,
    `select (select count(*) from delivery_orders where order_reference = $1)::int
          + (select count(*) from outbox_events e join delivery_orders o on o.id = e.subject_id where o.order_reference = $1)::int as n`,
    [reference],
  );

const TUESDAY = {
  pickup_ready_at: '2026-03-31T10:00:00Z',
  dropoff_deadline: '2026-03-31T13:00:00Z',
};

describe('orders.create with a delivery window', () => {
  it('keeps the window, promises the deadline and shows both in the 201 and in orders.get', async () => {
    // delivery_date is ignored once pickup_ready_at names the pickup day.
    const created = await client.delivery.orders.create(
      orderBody({ ...TUESDAY, delivery_date: '2026-04-01' }) as CreateOrderRequest,
    );
    expect(created.data.order_details).toMatchObject({
      estimated_delivery: '2026-03-31T13:00:00.000Z',
      pickup_ready_at: '2026-03-31T10:00:00.000Z',
      dropoff_deadline: '2026-03-31T13:00:00.000Z',
    });
    const got = await client.delivery.orders.get(created.data.order_details.order_id);
    expect(got.data.order_info).toMatchObject({
      pickup_ready_at: '2026-03-31T10:00:00.000Z',
      dropoff_deadline: '2026-03-31T13:00:00.000Z',
    });
    expect(got.data.order_info.pickup_date).toBe('2026-03-31');
  });

  it('promises a ready-only order as a standard plan does from its ready time, by closing time', async () => {
    const at = async (pickup_ready_at: string) =>
      (await send(CREATE, orderBody({ pickup_ready_at }))).body.data.order_details;
    expect((await at('2026-03-31T10:00:00Z')).estimated_delivery).toBe('2026-03-31T14:00:00.000Z');
    expect(await at('2026-03-31T18:00:00Z')).toMatchObject({
      estimated_delivery: '2026-03-31T20:00:00.000Z',
      pickup_ready_at: '2026-03-31T18:00:00.000Z',
    });
  });

  it('answers an order without a window exactly as before: no window fields, the usual plan', async () => {
    const res = await send(CREATE, orderBody());
    expect(res.status).toBe(201);
    expect(res.body.data.order_details).not.toHaveProperty('pickup_ready_at');
    expect(res.body.data.order_details).not.toHaveProperty('dropoff_deadline');
    // Standard, before the cut-off: picked up from 09:00, delivered by 13:00 the same day.
    expect(res.body.data.order_details.estimated_delivery).toBe('2026-03-30T13:00:00.000Z');
    const got = await send('/api/v1/delivery/orders.get', {
      order_id: res.body.data.order_details.order_id,
    });
    expect(got.body.data.order_info).not.toHaveProperty('pickup_ready_at');
  });

  it.each([
    ['a NUL byte', { pickup_ready_at: '2026-03-31T10:00:00Z\u0000' }, 'DELIVERY_WINDOW_INVALID'],
    ['no offset', { pickup_ready_at: '2026-03-31T10:00:00' }, 'DELIVERY_WINDOW_INVALID'],
    ['not a date', { dropoff_deadline: 'tomorrow noon' }, 'DELIVERY_WINDOW_INVALID'],
    ['a number', { dropoff_deadline: 1774962000 }, 'DELIVERY_WINDOW_INVALID'],
    // The API's date-time format is bounded to years 2000 to 2100, so absurd years are malformed.
    ['year 0', { pickup_ready_at: '0000-01-01T10:00:00Z' }, 'DELIVERY_WINDOW_INVALID'],
    ['the past', { dropoff_deadline: '2026-03-30T08:00:00Z' }, 'DELIVERY_WINDOW_IN_PAST'],
    ['year 9999', { dropoff_deadline: '9999-12-31T10:00:00Z' }, 'DELIVERY_WINDOW_INVALID'],
    ['15 days ahead', { pickup_ready_at: '2026-04-14T10:00:00Z' }, 'DELIVERY_WINDOW_TOO_FAR'],
    [
      'a deadline before ready',
      { pickup_ready_at: '2026-03-31T13:00:00Z', dropoff_deadline: '2026-03-31T10:00:00Z' },
      'DELIVERY_WINDOW_REVERSED',
    ],
    [
      'a 30-minute window',
      { pickup_ready_at: '2026-03-31T10:00:00Z', dropoff_deadline: '2026-03-31T10:30:00Z' },
      'DELIVERY_WINDOW_TOO_SHORT',
    ],
    ['Good Friday', { pickup_ready_at: '2026-04-03T10:00:00Z' }, 'DELIVERY_WINDOW_ON_HOLIDAY'],
    [
      'a Sunday',
      { dropoff_deadline: '2026-04-05T12:00:00Z' },
      'DELIVERY_WINDOW_OUTSIDE_SERVICE_HOURS',
    ],
    [
      'at night',
      { pickup_ready_at: '2026-03-31T22:00:00Z' },
      'DELIVERY_WINDOW_OUTSIDE_SERVICE_HOURS',
    ],
  ])('refuses %s with 400 and its code, writing nothing', async (_name, window, code) => {
    const body = orderBody(window);
    const res = await send(CREATE, body);
    expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([400, code]);
    expect(await written(body.order_reference)).toBe(0);
  });

  it('checks each bulk item the same way, alone', async () => {
    const good = orderBody(TUESDAY);
    const bad = orderBody({ pickup_ready_at: '2026-04-03T10:00:00Z' });
    const res = await send(BULK, { orders: [good, bad] });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: any) => [r.ok, r.code ?? null])).toEqual([
      [true, null],
      [false, 'DELIVERY_WINDOW_ON_HOLIDAY'],
    ]);
    expect(await written(bad.order_reference)).toBe(0);
  });
});

describe('orders.estimate windows', () => {
  it('offers windows that orders.create accepts, and none outside Ghana', async () => {
    const res = await client.delivery.orders.estimate({
      delivery_location: { coordinates: EAST_LEGON },
    });
    const windows = res.data.windows;
    expect(windows[0]).toEqual({
      pickup_ready_at: '2026-03-30T11:00:00.000Z',
      dropoff_deadline: '2026-03-30T14:00:00.000Z',
    });
    expect(new Set(windows.map((w) => w.pickup_ready_at.slice(0, 10)))).toEqual(
      new Set(['2026-03-30', '2026-03-31', '2026-04-01']),
    );
    const last = windows.at(-1)!;
    const created = await send(CREATE, orderBody(last));
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const lome = await client.delivery.orders.estimate({
      delivery_location: { coordinates: { lat: 6.13, lng: 1.222 } },
    });
    expect(lome.data.windows).toEqual([]);
  });
});
