import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRequestError, PartnerClient, type CreateOrderRequest } from '@partner-platform/sdk';
import {
  addKey,
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { CENTRAL_ACCRA } from '../../../src/shared/ghana/index.ts';
import { ACCRA_CENTRAL, EAST_LEGON, orderBody } from '../fixtures.ts';

const CREATE = '/api/v1/delivery/orders.create';
const ESTIMATE = '/api/v1/delivery/orders.estimate';

// Monday 30 March 2026, 09:00 in Accra. The server and the signing clients share this clock, so a
// test can move past a quote's expiry without waiting.
let now = Date.parse('2026-03-30T09:00:00Z');
const clock = () => now;

let p: TestPlatform;
let s: PartnerSetup;
let other: PartnerSetup;
let client: PartnerClient;

const onClock = (who: PartnerSetup) =>
  new PartnerClient({
    apiKey: who.apiKey,
    signingSecret: who.signingSecret,
    baseUrl: p.url,
    fetch: p.fetch,
    now: clock,
  });

beforeAll(async () => {
  p = await startPlatform({ socket: false, clock });
  s = await createPartner(p);
  other = await createPartner(p);
  client = onClock(s);
});
afterAll(() => p.close());

type Res = { status: number; body: any };
const send = (path: string, body: unknown, c: PartnerClient = client): Promise<Res> =>
  c.send('POST', path, { body });

/** A standard quote for the fixture's route (ACCRA_CENTRAL → EAST_LEGON) through the typed SDK. */
async function quote(c: PartnerClient = client) {
  const res = await c.delivery.orders.estimate({
    pickup_location: { coordinates: ACCRA_CENTRAL },
    delivery_location: { coordinates: EAST_LEGON },
  });
  return res.data;
}

function quotedOrder(quoteId: string, overrides: Record<string, unknown> = {}) {
  const body = orderBody({ quote_id: quoteId, ...overrides });
  body.pickup.coordinates = ACCRA_CENTRAL;
  body.delivery.coordinates = EAST_LEGON;
  return body;
}

const ordersWith = (quoteId: string) =>
  countRows(p, 'select count(*)::int as n from delivery_orders where quote_id = $1', [quoteId]);
const ordersByReference = (reference: string) =>
  countRows(p, 'select count(*)::int as n from delivery_orders where order_reference = $1', [
    reference,
  ]);

/** A refusal with its code; the order was not written. */
async function refused(body: Record<string, any>, code: string, c: PartnerClient = client) {
  const res = await send(CREATE, body, c);
  expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([400, code]);
  expect(await ordersByReference(body.order_reference)).toBe(0);
  return res.body;
}

describe('orders.estimate quotes', () => {
  it('locks the standard price for 15 minutes by default', async () => {
    const q = await quote();
    expect(q.quote_id).toMatch(/^quo_[0-9A-Z]{26}$/);
    expect(q.quote_expires_at).toBe(new Date(now + 15 * 60_000).toISOString());
    expect(q.priority_level).toBe('standard');
  });

  it('gives no quote for other priorities or outside Ghana (orders.create prices standard only)', async () => {
    now += 1000;
    const economy = await client.delivery.orders.estimate({
      delivery_location: { coordinates: EAST_LEGON },
      priority: 'economy',
    });
    expect(economy.data).not.toHaveProperty('quote_id');
    const lome = await client.delivery.orders.estimate({
      delivery_location: { coordinates: { lat: 6.13, lng: 1.222 } },
    });
    expect(lome.data).not.toHaveProperty('quote_id');
    expect(lome.data).not.toHaveProperty('quote_expires_at');
  });
});

describe('orders.create with quote_id', () => {
  it('charges the quoted fee, echoes the quote and keeps it on the order', async () => {
    const q = await quote();
    // The price changes after the quote: the order still pays what was quoted.
    await p.app.platform.db.query('update delivery_quotes set fee_pesewas = 1234 where id = $1', [
      q.quote_id,
    ]);
    const body = quotedOrder(q.quote_id!) as CreateOrderRequest;
    const created = await client.delivery.orders.create(body);
    expect(created.data.order_details).toMatchObject({ amount: 12.34, quote_id: q.quote_id });
    const details = await client.delivery.orders.get(created.data.order_details.order_id);
    expect(details.data.order_info).toMatchObject({ amount: 12.34, quote_id: q.quote_id });
  });

  it('charges the quoted fee to the wallet of a wallet-funded order', async () => {
    const owner = await createPartner(p, { environment: 'production' });
    await p.admin('PATCH', `/partners/${owner.partnerId}`, { credit_limit_ghs: 500 });
    const spender = onClock(
      await addKey(p, owner, {
        environment: 'production',
        scopes: ['delivery:read', 'delivery:write', 'delivery:wallet:spend'],
      }),
    );
    const q = await quote(spender);
    await p.app.platform.db.query('update delivery_quotes set fee_pesewas = 2050 where id = $1', [
      q.quote_id,
    ]);
    const created = await spender.delivery.orders.create(
      quotedOrder(q.quote_id!, { payment: { payer: 'partner' } }) as CreateOrderRequest,
    );
    expect(created.data.order_details.amount).toBe(20.5);
    const wallet = await p.admin('GET', `/partners/${owner.partnerId}/wallet`);
    expect(wallet.body.balance_ghs).toBe(-20.5);
  });

  it('answers a replay of the order that used the quote as the duplicate it is (409; the SDK recovers it)', async () => {
    const q = await quote();
    const body = quotedOrder(q.quote_id!) as CreateOrderRequest;
    const first = await send(CREATE, body);
    expect(first.status).toBe(201);
    const again = await send(CREATE, body);
    expect([again.status, again.body.code]).toEqual([409, 'DUPLICATE_ORDER_REFERENCE']);
    // Even once the quote has expired, the replay is still the same order's duplicate.
    now += 16 * 60_000;
    const late = await send(CREATE, body);
    expect([late.status, late.body.code]).toEqual([409, 'DUPLICATE_ORDER_REFERENCE']);
    expect(await ordersWith(q.quote_id!)).toBe(1);
  });

  it('refuses a quote another order used: QUOTE_ALREADY_USED', async () => {
    const q = await quote();
    expect((await send(CREATE, quotedOrder(q.quote_id!))).status).toBe(201);
    const body = await refused(quotedOrder(q.quote_id!), 'QUOTE_ALREADY_USED');
    expect(body.details).toEqual([
      { field: 'quote_id', issue: 'was already used by another order' },
    ]);
  });

  it('lets exactly one of two concurrent creates redeem a quote', async () => {
    const q = await quote();
    const [a, b] = await Promise.all([
      send(CREATE, quotedOrder(q.quote_id!)),
      send(CREATE, quotedOrder(q.quote_id!)),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 400]);
    expect([a, b].find((r) => r.status === 400)!.body.code).toBe('QUOTE_ALREADY_USED');
    expect(await ordersWith(q.quote_id!)).toBe(1);
  });

  it('lets one of two concurrent tries of the same quoted order land, the other a duplicate', async () => {
    const q = await quote();
    const body = quotedOrder(q.quote_id!);
    const [a, b] = await Promise.all([send(CREATE, body), send(CREATE, body)]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.code).toBe('DUPLICATE_ORDER_REFERENCE');
    expect(await ordersWith(q.quote_id!)).toBe(1);
  });

  it('refuses an expired quote: QUOTE_EXPIRED', async () => {
    const q = await quote();
    now = Date.parse(q.quote_expires_at!);
    const body = await refused(quotedOrder(q.quote_id!), 'QUOTE_EXPIRED');
    expect(body.message).toContain(q.quote_expires_at);
  });

  it('refuses an unknown quote, and one of another app or environment, alike: QUOTE_NOT_FOUND', async () => {
    await refused(quotedOrder('quo_01KB3Z8M4Q2W7N5X9R0T6V1YCD'), 'QUOTE_NOT_FOUND');
    await refused(quotedOrder('quo_x'), 'QUOTE_NOT_FOUND');
    const foreign = await quote(onClock(other));
    const a = await refused(quotedOrder(foreign.quote_id!), 'QUOTE_NOT_FOUND');
    // The same app's production key cannot redeem a staging quote either.
    await p.admin('PATCH', `/partners/${s.partnerId}`, { production_active: true });
    const production = onClock(await addKey(p, s, { environment: 'production' }));
    const staging = await quote();
    const b = await refused(quotedOrder(staging.quote_id!), 'QUOTE_NOT_FOUND', production);
    expect(b.message).toBe(a.message);
    // Both quotes are still good for their own owners.
    expect((await send(CREATE, quotedOrder(foreign.quote_id!), onClock(other))).status).toBe(201);
    expect((await send(CREATE, quotedOrder(staging.quote_id!))).status).toBe(201);
  });

  it('refuses an order for another route than the quote priced: QUOTE_MISMATCH', async () => {
    const q = await quote();
    const moved = quotedOrder(q.quote_id!);
    moved.delivery.coordinates = { lat: EAST_LEGON.lat + 0.0001, lng: EAST_LEGON.lng };
    const body = await refused(moved, 'QUOTE_MISMATCH');
    expect(body.details).toEqual([
      { field: 'delivery.coordinates', issue: 'must be the delivery point the quote priced' },
    ]);
    const noPickup = quotedOrder(q.quote_id!);
    delete noPickup.pickup.coordinates;
    expect((await refused(noPickup, 'QUOTE_MISMATCH')).details[0].field).toBe('pickup.coordinates');
    // The refusals used nothing up: the right route still redeems it.
    expect((await send(CREATE, quotedOrder(q.quote_id!))).status).toBe(201);
  });

  it('holds a quote whose pickup defaulted to central Accra for that very point', async () => {
    const res = await client.delivery.orders.estimate({
      delivery_location: { coordinates: EAST_LEGON },
    });
    const body = quotedOrder(res.data.quote_id!);
    body.pickup.coordinates = { lat: CENTRAL_ACCRA.lat, lng: CENTRAL_ACCRA.lng + 0.001 };
    await refused(body, 'QUOTE_MISMATCH');
    body.order_reference = `ref-${crypto.randomUUID()}`;
    body.pickup.coordinates = { ...CENTRAL_ACCRA };
    const created = await send(CREATE, body);
    expect(created.status).toBe(201);
    expect(created.body.data.order_details.amount).toBe(res.data.estimated_price);
  });

  it('throws the typed SDK error with the code', async () => {
    const err = await client.delivery.orders
      .create(quotedOrder('quo_01KB3Z8M4Q2W7N5X9R0T6V1YCD') as CreateOrderRequest)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect((err as InvalidRequestError).code).toBe('QUOTE_NOT_FOUND');
  });

  it.each([
    ['a NUL byte', 'quo_01KB3Z8M4Q2W7N5X9R0T6V\u0000YCD'],
    ['control characters', 'quo_\u0007\u001b[31m'],
    ['a huge string', `quo_${'A'.repeat(100_000)}`],
    ['a number', 12345],
    ['an object', { id: 'quo_x' }],
    ['an empty string', ''],
  ])('refuses a quote_id with %s as an invalid order, writing nothing', async (_, quoteId) => {
    const before = await countRows(p, 'select count(*)::int as n from delivery_orders');
    await refused(quotedOrder(quoteId as string), 'INVALID_ORDER_PAYLOAD');
    expect(await countRows(p, 'select count(*)::int as n from delivery_orders')).toBe(before);
  });

  it('refuses extreme dates on a quoted order, and an estimate with one issues no quote', async () => {
    const q = await quote();
    await refused(
      quotedOrder(q.quote_id!, { delivery_date: '9999-12-31' }),
      'INVALID_ORDER_PAYLOAD',
    );
    await refused(
      quotedOrder(q.quote_id!, { delivery_date: '0001-01-01' }),
      'INVALID_ORDER_PAYLOAD',
    );
    const quotes = await countRows(p, 'select count(*)::int as n from delivery_quotes');
    for (const order_date of ['9999-12-31', '1900-02-30', '2026-13-01']) {
      const res = await send(ESTIMATE, {
        delivery_location: { coordinates: EAST_LEGON },
        order_date,
      });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect(await countRows(p, 'select count(*)::int as n from delivery_quotes')).toBe(quotes);
    expect(await ordersWith(q.quote_id!)).toBe(0);
  });
});

describe('the quote sweep', () => {
  const MINUTE = 60_000;
  const kept = (id: string) =>
    countRows(p, 'select count(*)::int as n from delivery_quotes where id = $1', [id]);

  it('deletes a quote nobody redeemed a day after it expired, keeping redeemed and younger ones', async () => {
    const redeemed = await quote();
    expect((await send(CREATE, quotedOrder(redeemed.quote_id!))).status).toBe(201);
    const unused = await quote();
    now += 16 * MINUTE;
    const sweep = () => p.app.platform.delivery!.quotes.sweep(new Date(now));
    await sweep();
    expect([await kept(unused.quote_id!), await kept(redeemed.quote_id!)]).toEqual([1, 1]);
    expect((await send(CREATE, quotedOrder(unused.quote_id!))).body.code).toBe('QUOTE_EXPIRED');

    now += 24 * 60 * MINUTE;
    const fresh = await quote();
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect([
      await kept(unused.quote_id!),
      await kept(redeemed.quote_id!),
      await kept(fresh.quote_id!),
    ]).toEqual([0, 1, 1]);
    expect(await ordersWith(redeemed.quote_id!)).toBe(1);
  });
});
