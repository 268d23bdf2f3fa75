import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { orderBody } from '../../delivery/fixtures.ts';

/** Values that used to reach the database or date arithmetic and answer 500: each kind once, by hand. */

type ErrorBody = {
  code: string;
  request_id: string;
  details?: Array<{ field: string; issue: string }>;
};
type Res = { status: number; headers: Record<string, string>; body: ErrorBody };

let p: TestPlatform;
let s: PartnerSetup;
let prod: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform();
  s = await createPartner(p);
  prod = await createPartner(p, {
    environment: 'production',
    scopes: ['*', 'safe:write', 'delivery:wallet:topup', 'delivery:wallet:spend', 'payouts:read'],
  });
});
afterAll(() => p.close());

function expectRefused(res: Res, code: string, field: string): void {
  expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([400, code]);
  expect(res.body.details?.map((d) => d.field)).toContain(field);
  expect(res.headers['x-request-id']).toBe(res.body.request_id);
}

const NUL = 'x\u0000y';
const send = (
  who: PartnerSetup,
  method: string,
  path: string,
  opts: { body?: unknown; query?: Record<string, string> },
) => who.client.send<ErrorBody>(method, path, opts) as Promise<Res>;

describe('control characters and unpaired surrogates', () => {
  it('refuses NUL in every kind of id, with the operation validation code and the field named', async () => {
    const delivery = '/api/v1/delivery';
    const safe = '/api/v1/safe-catalog';
    const cases: Array<
      [
        PartnerSetup,
        string,
        string,
        { body?: unknown; query?: Record<string, string> },
        string,
        string,
      ]
    > = [
      [
        s,
        'POST',
        `${delivery}/orders.get`,
        { body: { order_id: NUL } },
        'VALIDATION_ERROR',
        'order_id',
      ],
      [
        s,
        'POST',
        `${delivery}/orders.get`,
        { body: { order_reference: NUL } },
        'VALIDATION_ERROR',
        'order_reference',
      ],
      [
        s,
        'POST',
        `${delivery}/orders.track`,
        { body: { order_id: NUL } },
        'VALIDATION_ERROR',
        'order_id',
      ],
      [
        s,
        'POST',
        `${delivery}/orders.cancel`,
        { body: { order_id: NUL } },
        'VALIDATION_ERROR',
        'order_id',
      ],
      [
        s,
        'POST',
        `${delivery}/orders.create`,
        { body: orderBody({ order_reference: NUL }) },
        'INVALID_ORDER_PAYLOAD',
        'order_reference',
      ],
      [
        s,
        'POST',
        `${delivery}/orders.create`,
        { body: orderBody({ delivery: { ...orderBody().delivery, location_id: NUL } }) },
        'INVALID_ORDER_PAYLOAD',
        'delivery.location_id',
      ],
      [
        s,
        'POST',
        `${delivery}/locations.list`,
        { body: { region: NUL } },
        'VALIDATION_ERROR',
        'region',
      ],
      [
        prod,
        'POST',
        `${delivery}/wallet.topup.verify`,
        { body: { client_reference: `serviceD_WA${NUL}0123456789abcd` } },
        'VALIDATION_ERROR',
        'client_reference',
      ],
      [
        s,
        'GET',
        `${safe}/catalog.get`,
        { query: { product_id: NUL } },
        'VALIDATION_ERROR',
        'product_id',
      ],
      [
        s,
        'GET',
        `${safe}/catalog.list`,
        { query: { vendor_id: NUL } },
        'VALIDATION_ERROR',
        'vendor_id',
      ],
      [s, 'GET', `${safe}/orders.get`, { query: { sale_id: NUL } }, 'VALIDATION_ERROR', 'sale_id'],
      [
        prod,
        'POST',
        `${safe}/orders.verify`,
        { body: { sale_id: NUL } },
        'VALIDATION_ERROR',
        'sale_id',
      ],
    ];
    for (const [who, method, path, opts, code, field] of cases)
      expectRefused(await send(who, method, path, opts), code, field);
    // Of the two shapes orders.get takes, the one the caller meant speaks.
    const byReference = await send(s, 'POST', `${delivery}/orders.get`, {
      body: { order_reference: NUL },
    });
    expect(byReference.body.details).toEqual([
      { field: 'order_reference', issue: 'must not contain control characters (found U+0000)' },
    ]);
  });

  it('refuses unpaired surrogates and line breaks in one-line text; free text keeps tabs and line breaks', async () => {
    const create = (body: unknown) => send(s, 'POST', '/api/v1/delivery/orders.create', { body });
    expectRefused(
      await create(orderBody({ customer: { name: 'Ama \ud800', phone: '0241234567' } })),
      'INVALID_ORDER_PAYLOAD',
      'customer.name',
    );
    expectRefused(
      await create(orderBody({ item: 'sandals\udc00' })),
      'INVALID_ORDER_PAYLOAD',
      'item',
    );
    expectRefused(
      await create(orderBody({ customer: { name: 'Ama\nMensah', phone: '0241234567' } })),
      'INVALID_ORDER_PAYLOAD',
      'customer.name',
    );
    expectRefused(
      await create(orderBody({ special_instructions: 'ring\u0007twice' })),
      'INVALID_ORDER_PAYLOAD',
      'special_instructions',
    );
    expect(
      (await create(orderBody({ special_instructions: 'Call first.\r\n\tGate code 4411' }))).status,
    ).toBe(201);
  });

  it('fails a bulk item with NUL on its own, with the validation code (never "retry")', async () => {
    const good = orderBody();
    const bad = orderBody({ item: NUL });
    const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create_bulk', {
      body: { orders: [bad, good] },
    });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({
      order_reference: bad.order_reference,
      ok: false,
      status_code: 400,
      code: 'INVALID_ORDER_PAYLOAD',
    });
    expect(res.body.results[0].message).toMatch(/^item /);
    expect(res.body.results[1]).toMatchObject({ ok: true, status_code: 201 });
    expect(
      await countRows(
        p,
        'select count(*)::int as n from delivery_orders where order_reference = $1',
        [bad.order_reference],
      ),
    ).toBe(0);
  });

  it('refuses NUL in path parameters of public pages and operator routes, and in payment callbacks', async () => {
    for (const path of ['/track/abc%00defghijklmnopqrs', '/sandbox/checkout/chk%00x']) {
      const res = await fetch(p.url + path);
      const body = (await res.json()) as ErrorBody;
      expect([res.status, body.code], path).toEqual([400, 'VALIDATION_ERROR']);
    }
    const pay = await p.fetch(`${p.url}/sandbox/checkout/chk%00x/pay`, { method: 'POST' });
    expect(pay.status).toBe(400);
    const callback = await p.fetch(`${p.url}/webhooks/payments/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_reference: NUL, status: 'Paid' }),
    });
    expect([callback.status, ((await callback.json()) as ErrorBody).code]).toEqual([
      400,
      'VALIDATION_ERROR',
    ]);
    const admin = await p.admin('POST', '/partners', { name: NUL });
    expect([admin.status, admin.body.code, admin.body.details[0].field]).toEqual([
      400,
      'VALIDATION_ERROR',
      'name',
    ]);
  });
});

describe('dates and numbers at the edges', () => {
  const estimate = (extra: Record<string, unknown>) =>
    send(s, 'POST', '/api/v1/delivery/orders.estimate', {
      body: { delivery_location: { coordinates: { lat: 5.6, lng: -0.2 } }, ...extra },
    });

  it('refuses impossible and out-of-range dates with the validation code, never a RangeError', async () => {
    for (const order_date of [
      '9999-12-31',
      '0000-01-01',
      '2024-02-30',
      '1999-12-31',
      '2101-01-01',
    ]) {
      expectRefused(await estimate({ order_date }), 'VALIDATION_ERROR', 'order_date');
    }
    expect((await estimate({ order_date: '2100-12-31' })).status).toBe(200);
    const create = await send(s, 'POST', '/api/v1/delivery/orders.create', {
      body: orderBody({ delivery_date: '9999-12-31' }),
    });
    expectRefused(create, 'INVALID_ORDER_PAYLOAD', 'delivery_date');
  });

  it('refuses numbers beyond double range and answers extreme ones without a 5xx', async () => {
    const infinite = await s.client.send<ErrorBody>('POST', '/api/v1/delivery/orders.estimate', {
      rawBody: '{"delivery_location":{"coordinates":{"lat":1e400,"lng":0}}}',
    });
    expectRefused(infinite as Res, 'VALIDATION_ERROR', 'delivery_location.coordinates.lat');
    for (const limit of ['1e308', '99999999999999999999999', '-0', '1e400']) {
      const res = await send(s, 'GET', '/api/v1/safe-catalog/catalog.list', { query: { limit } });
      expect(res.status, limit).toBeLessThan(500);
    }
    const markup = await prod.client.send<ErrorBody>('POST', '/api/v1/safe-catalog/orders.create', {
      rawBody:
        '{"payment_method":"cod","vendor_id":"ven_x","items":[{"product_id":"p","variant_id":"v","quantity":1}],"buyer":{"name":"A","phone":"0241234567"},"delivery":{"address":"x"},"reseller_markup_ghs":1e400,"external_reference":"abc"}',
    });
    expectRefused(markup as Res, 'VALIDATION_ERROR', 'reseller_markup_ghs');
  });
});
