import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../../src/integrations/payments/gateway.ts';
import {
  addKey,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { saleOf } from '../../helpers/orders-read.ts';
import {
  createProduct,
  createOrder,
  getSale,
  orderBody,
  placed,
  salesPartner,
  shop,
  stockOf,
  SALE_SCOPES,
} from '../helpers.ts';

let p: TestPlatform;
let s: PartnerSetup;
let a: Awaited<ReturnType<typeof shop>>;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  s = await salesPartner(p);
  a = await shop(p);
});
afterAll(() => p.close());

async function expectError(body: unknown, status: number, code: string, field?: string) {
  const res = await createOrder(s, body);
  expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([status, code]);
  if (field)
    expect(
      res.body.details.map((d: any) => d.field),
      JSON.stringify(res.body.details),
    ).toContain(field);
  return res.body;
}

describe('orders.create access', () => {
  it('needs a production key with safe:write granted by name', async () => {
    const staging = await createPartner(p, { scopes: SALE_SCOPES });
    const res = await createOrder(staging, orderBody(a));
    expect([res.status, res.body.code]).toEqual([403, 'PRODUCTION_KEY_REQUIRED']);
    const wildcard = await createPartner(p, { environment: 'production', scopes: ['*'] });
    expect((await createOrder(wildcard, orderBody(a))).body.code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('orders.create validation', () => {
  it('answers VALIDATION_ERROR with details for each malformed field', async () => {
    const item = orderBody(a).items[0];
    await expectError(
      orderBody(a, { payment_method: 'card' }),
      400,
      'VALIDATION_ERROR',
      'payment_method',
    );
    await expectError(orderBody(a, { items: [] }), 400, 'VALIDATION_ERROR', 'items');
    for (const quantity of [0, -1, 1.5, '2'])
      await expectError(
        orderBody(a, { items: [{ ...item, quantity }] }),
        400,
        'VALIDATION_ERROR',
        'items.0.quantity',
      );
    await expectError(
      orderBody(a, { external_reference: 'ab' }),
      400,
      'VALIDATION_ERROR',
      'external_reference',
    );
    await expectError(
      orderBody(a, { external_reference: 'x'.repeat(65) }),
      400,
      'VALIDATION_ERROR',
      'external_reference',
    );
    await expectError(
      orderBody(a, { payment_method: 'online', reseller_markup_ghs: -1 }),
      400,
      'VALIDATION_ERROR',
      'reseller_markup_ghs',
    );
    await expectError(
      orderBody(a, { payment_method: 'online', reseller_markup_ghs: 180.01 }),
      400,
      'VALIDATION_ERROR',
      'reseller_markup_ghs',
    );
    await expectError(
      orderBody(a, { payment_method: 'online', reseller_markup_ghs: 1.005 }),
      400,
      'VALIDATION_ERROR',
      'reseller_markup_ghs',
    );
    await expectError(orderBody(a, { colour: 'red' }), 400, 'VALIDATION_ERROR', 'colour');
    await expectError(
      orderBody(a, { buyer: { name: 'Ama', phone: '024 123 4567', email: 'a@b.c' } }),
      400,
      'VALIDATION_ERROR',
      'buyer.email',
    );
    await expectError(
      orderBody(a, { items: [{ ...item, price_ghs: 1 }] }),
      400,
      'VALIDATION_ERROR',
      'items.0.price_ghs',
    );
    await expectError(
      orderBody(a, { buyer: { name: 'Ama', phone: '12345' } }),
      400,
      'VALIDATION_ERROR',
      'buyer.phone',
    );
    await expectError(
      orderBody(a, { delivery: { address: 'Osu', lat: 5.6 } }),
      400,
      'VALIDATION_ERROR',
      'delivery.lng',
    );
    await expectError(
      orderBody(a, { delivery: { address: 'London', lat: 51.5, lng: -0.12 } }),
      400,
      'VALIDATION_ERROR',
      'delivery.lat',
    );
    await expectError(
      orderBody(a, { delivery: { address: 'Osu', area_id: 'loc_nowhere' } }),
      400,
      'VALIDATION_ERROR',
      'delivery.area_id',
    );
    await expectError(orderBody(a, { buyer: undefined }), 400, 'VALIDATION_ERROR', 'buyer');
  });

  it('answers MARKUP_NOT_SUPPORTED_FOR_COD for any markup above 0 with cod, and accepts 0', async () => {
    await expectError(
      orderBody(a, { reseller_markup_ghs: 0.01 }),
      400,
      'MARKUP_NOT_SUPPORTED_FOR_COD',
    );
    const ok = await placed(s, orderBody(a, { reseller_markup_ghs: 0 }));
    expect(ok.markup_ghs).toBe(0);
  });

  it('refuses items of another vendor with VALIDATION_ERROR naming the item', async () => {
    const other = await shop(p);
    const body = orderBody(a, {
      items: [
        orderBody(a).items[0],
        { product_id: other.productId, variant_id: other.variantId, quantity: 1 },
      ],
    });
    await expectError(body, 400, 'VALIDATION_ERROR', 'items.1.product_id');
  });

  it('answers 404 PRODUCT_NOT_FOUND naming the item for unknown or inactive products, foreign variants and unsyndicated vendors', async () => {
    const inactive = await createProduct(p, a.vendorId, { active: false });
    const sibling = await createProduct(p, a.vendorId);
    const hidden = await shop(p, { vendor: { syndicatable: false } });
    const item = orderBody(a).items[0];
    await expectError(
      orderBody(a, { items: [item, { ...item, product_id: 'prd_unknown' }] }),
      404,
      'PRODUCT_NOT_FOUND',
      'items.1.product_id',
    );
    await expectError(
      orderBody(a, {
        items: [
          { ...item, product_id: inactive.product_id, variant_id: inactive.variants[0].variant_id },
        ],
      }),
      404,
      'PRODUCT_NOT_FOUND',
      'items.0.product_id',
    );
    await expectError(
      orderBody(a, { items: [{ ...item, variant_id: sibling.variants[0].variant_id }] }),
      404,
      'PRODUCT_NOT_FOUND',
      'items.0.variant_id',
    );
    await expectError(
      orderBody(a, { items: [{ ...item, variant_id: 'var_unknown' }] }),
      404,
      'PRODUCT_NOT_FOUND',
      'items.0.variant_id',
    );
    await expectError(orderBody(hidden), 404, 'PRODUCT_NOT_FOUND', 'items.0.product_id');
  });

  it('answers 400 OUT_OF_STOCK naming the variant, reserving nothing of the order', async () => {
    const b = await shop(p);
    const [first, second] = b.product.variants;
    const body = orderBody(b, {
      items: [
        { product_id: b.productId, variant_id: first.variant_id, quantity: 2 },
        { product_id: b.productId, variant_id: second.variant_id, quantity: 2 },
        { product_id: b.productId, variant_id: second.variant_id, quantity: 2 },
      ],
    });
    const err = await expectError(body, 400, 'OUT_OF_STOCK', 'items.1.variant_id');
    expect(err.details[0].issue).toContain(second.variant_id);
    expect(await stockOf(p, first.variant_id)).toEqual({ stock: 10, reserved: 0 });
    expect(await stockOf(p, second.variant_id)).toEqual({ stock: 3, reserved: 0 });
    await p.admin('PATCH', `/products/${b.productId}`, {
      variants: [{ variant_id: first.variant_id, in_stock: false }],
    });
    await expectError(orderBody(b), 400, 'OUT_OF_STOCK', 'items.0.variant_id');
  });
});

describe('orders.create pricing', () => {
  it('prices on the server: subtotal from catalog prices, the delivery fee from the pickup point, totals per method', async () => {
    const b = await shop(p);
    const [first, second] = b.product.variants;
    const items = [
      { product_id: b.productId, variant_id: first.variant_id, quantity: 2 },
      { product_id: b.productId, variant_id: second.variant_id, quantity: 1 },
    ];
    const cod = await placed(s, orderBody(b, { items }));
    const estimate = await s.client.send<any>('POST', '/api/v1/delivery/orders.estimate', {
      body: {
        delivery_location: { coordinates: { lat: 5.635, lng: -0.161 } },
        pickup_location: { coordinates: { lat: 5.556, lng: -0.179 } },
      },
    });
    expect(cod).toMatchObject({
      checkout_url: null,
      state: 'awaiting_delivery',
      subtotal_ghs: 555.5,
      delivery_fee_ghs: estimate.body.data.estimated_price,
      markup_ghs: 0,
    });
    expect(cod.total_ghs).toBeCloseTo(555.5 + cod.delivery_fee_ghs, 2);
    const online = await placed(
      s,
      orderBody(b, { items, payment_method: 'online', reseller_markup_ghs: 44.5 }),
    );
    expect(online).not.toHaveProperty('state');
    expect(online).toMatchObject({
      checkout_url: expect.stringMatching(/\/sandbox\/checkout\/chk_/),
      markup_ghs: 44.5,
      delivery_fee_ghs: cod.delivery_fee_ghs,
    });
    expect(online.total_ghs).toBeCloseTo(600 + cod.delivery_fee_ghs, 2);
    expect(await stockOf(p, first.variant_id)).toEqual({ stock: 10, reserved: 4 });
  });

  it('quotes from the area id, else an area named in the address, else the centre of the vendor zone', async () => {
    const newestFirst: string[] = [];
    const fee = async (delivery: Record<string, unknown>) => {
      const sale = await placed(s, orderBody(a, { delivery }));
      newestFirst.unshift(sale.sale_id);
      return sale.delivery_fee_ghs;
    };
    const exact = await fee({ address: 'Somewhere', lat: 5.635, lng: -0.161 });
    expect(await fee({ address: 'Somewhere', area_id: 'loc_accra_east_legon' })).toBe(exact);
    expect(await fee({ address: '12 Lagos Avenue, East Legon' })).toBe(exact);
    const sources = await Promise.all(
      newestFirst.map(async (id) => (await saleOf(p, id)).quote_source),
    );
    expect(sources).toEqual(['address', 'area', 'coordinates']);
    // Unplaced buyer: the vendor (Osu) is in Accra Metro, whose first listed area is Accra Central.
    const central = await fee({ address: 'House 7, unnamed street' });
    expect(central).toBe(await fee({ address: 'x', area_id: 'loc_accra_central' }));
  });
});

describe("orders.create: the buyer's point", () => {
  const point = { lat: 5.635, lng: -0.161 };
  // Its own shop: these orders take stock the other tests count on.
  let a: Awaited<ReturnType<typeof shop>>;
  beforeAll(async () => {
    a = await shop(p);
  });
  const stored = async (saleId: string) => {
    const { delivery_lat, delivery_lng, quote_source } = await saleOf(p, saleId);
    return { delivery_lat, delivery_lng, quote_source };
  };

  it('is taken as delivery.coordinates (canonical, as on delivery orders), as lat/lng, or as both when they agree: one fee, one stored point', async () => {
    const forms = [{ coordinates: point }, { ...point }, { coordinates: point, ...point }];
    const sales = [];
    for (const form of forms)
      sales.push(await placed(s, orderBody(a, { delivery: { address: 'Somewhere', ...form } })));
    expect(new Set(sales.map((x) => x.delivery_fee_ghs)).size).toBe(1);
    for (const sale of sales)
      expect(await stored(sale.sale_id)).toEqual({
        delivery_lat: point.lat,
        delivery_lng: point.lng,
        quote_source: 'coordinates',
      });
  });

  it('answers 400 CONFLICTING_COORDINATES when both forms are sent and disagree, reserving nothing', async () => {
    const before = await stockOf(p, a.variantId);
    for (const flat of [
      { lat: 5.636, lng: point.lng },
      { lat: point.lat, lng: -0.162 },
    ]) {
      const body = await expectError(
        orderBody(a, { delivery: { address: 'Somewhere', coordinates: point, ...flat } }),
        400,
        'CONFLICTING_COORDINATES',
        'delivery.coordinates',
      );
      expect(body.message).toMatch(/delivery\.coordinates alone/);
    }
    expect(await stockOf(p, a.variantId)).toEqual(before);
  });

  it('checks delivery.coordinates like lat/lng: both members, numbers, inside Ghana', async () => {
    await expectError(
      orderBody(a, { delivery: { address: 'Osu', coordinates: { lat: 5.6 } } }),
      400,
      'VALIDATION_ERROR',
      'delivery.coordinates.lng',
    );
    await expectError(
      orderBody(a, { delivery: { address: 'Osu', coordinates: { lat: '5.6', lng: -0.1 } } }),
      400,
      'VALIDATION_ERROR',
      'delivery.coordinates.lat',
    );
    await expectError(
      orderBody(a, { delivery: { address: 'London', coordinates: { lat: 51.5, lng: -0.12 } } }),
      400,
      'VALIDATION_ERROR',
      'delivery.coordinates',
    );
  });
});

describe('external_reference', () => {
  it('is unique per app and environment among created orders: a reuse answers 409 DUPLICATE_REFERENCE', async () => {
    const body = orderBody(a);
    const first = await placed(s, body);
    await expectError({ ...body, payment_method: 'online' }, 409, 'DUPLICATE_REFERENCE');
    // The same reference in another app is another order (creation is production-only, so the environment is always production).
    const other = await salesPartner(p);
    expect((await createOrder(other, body)).status).toBe(201);
    expect(
      (await getSale(s, { external_reference: body.external_reference })).body.data.sale_id,
    ).toBe(first.sale_id);
  });

  it('is free again after an attempt that answered 4xx', async () => {
    const b = await shop(p, {
      product: { variants: [{ label: 'Only', price_ghs: 50, stock: 1 }] },
    });
    const body = orderBody(b, {
      items: [{ product_id: b.productId, variant_id: b.variantId, quantity: 2 }],
    });
    expect((await createOrder(s, body)).body.code).toBe('OUT_OF_STOCK');
    expect(
      (await createOrder(s, { ...body, items: [{ ...body.items[0], quantity: 1 }] })).status,
    ).toBe(201);
  });

  it('is free again, with the stock, after a gateway failure answered 502', async () => {
    const b = await shop(p, {
      product: { variants: [{ label: 'Only', price_ghs: 50, stock: 1 }] },
    });
    const body = orderBody(b, { payment_method: 'online' });
    const gateway = p.app.platform.gateways.forPayment('production');
    const spy = vi
      .spyOn(gateway, 'createCheckout')
      .mockRejectedValueOnce(new GatewayError('timed out'));
    const failed = await createOrder(s, body);
    spy.mockRestore();
    expect([failed.status, failed.body.code]).toEqual([502, 'GATEWAY_ERROR']);
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 1, reserved: 0 });
    const released = await p.app.platform.db.query<any>(
      'select state, payment_status, external_reference, released_reference from sales where released_reference = $1',
      [body.external_reference],
    );
    expect(released).toEqual([
      {
        state: 'failed',
        payment_status: 'not_started',
        external_reference: null,
        released_reference: body.external_reference,
      },
    ]);
    expect((await getSale(s, { external_reference: body.external_reference })).body.code).toBe(
      'SALE_NOT_FOUND',
    );
    const retry = await placed(s, body);
    expect(
      (await getSale(s, { external_reference: body.external_reference })).body.data.sale_id,
    ).toBe(retry.sale_id);
    const events = await p.app.platform.db.query<any>(
      "select type from outbox_events where type like 'safe.order.%' and payload->'data'->>'external_reference' = $1",
      [body.external_reference],
    );
    expect(events).toEqual([]);
  });

  it('stays held by an order that was created and failed later', async () => {
    const body = orderBody(a);
    const sale = await placed(s, body);
    const delivery = (await getSale(s, { sale_id: sale.sale_id })).body.data.delivery.order_id;
    expect(
      (
        await s.client.send<any>('POST', '/api/v1/delivery/orders.cancel', {
          body: { order_id: delivery },
        })
      ).status,
    ).toBe(200);
    expect((await getSale(s, { sale_id: sale.sale_id })).body.data.state).toBe('failed');
    await expectError(body, 409, 'DUPLICATE_REFERENCE');
  });
});

describe('external_reference across keys', () => {
  it('is shared by every key of the app: the app, not the key, owns it', async () => {
    const prodKey = await addKey(p, s, { environment: 'production', scopes: SALE_SCOPES });
    const body = orderBody(a);
    await placed(s, body);
    expect((await createOrder(prodKey, body)).body.code).toBe('DUPLICATE_REFERENCE');
  });
});
