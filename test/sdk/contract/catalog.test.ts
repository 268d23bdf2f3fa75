import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  type SafeOrderRequest,
} from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { createShop, landThenLose, rejection, saleBody, scripted, type Shop } from '../support.ts';

let p: TestPlatform;
let staging: PartnerSetup;
let production: PartnerSetup;
let shop: Shop;

beforeAll(async () => {
  p = await startPlatform();
  const scopes = ['safe:read', 'safe:write', 'delivery:read', 'delivery:write'];
  [staging, production] = await Promise.all([
    createPartner(p),
    createPartner(p, { environment: 'production', scopes }),
  ]);
  shop = await createShop(p);
});
afterAll(() => p.close());

const sale = (extra: Partial<SafeOrderRequest> = {}) => saleBody(shop, extra);

describe('SDK: safe-catalog operations against the real server', () => {
  it('health; a key without safe:read is a PermissionError', async () => {
    expect(await staging.client.catalog.health()).toEqual({ status: 'ok' });
    const deliveryOnly = await createPartner(p, { scopes: ['delivery:read'] });
    const err = await rejection(deliveryOnly.client.catalog.health());
    expect(err).toBeInstanceOf(PermissionError);
    expect(err.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('list pages with a cursor and filters by vendor; a limit of 0 is VALIDATION_ERROR', async () => {
    const all = await staging.client.catalog.list({ vendor_id: shop.vendorId });
    expect(all.data.products.map((x) => x.product_id)).toEqual([shop.productId]);
    expect(all.data.count).toBe(1);
    const other = await createShop(p);
    const first = await staging.client.catalog.list({ limit: 1 });
    expect(first.data.count).toBe(1);
    expect(first.data.next_cursor).toEqual(expect.any(String));
    const second = await staging.client.catalog.list({ limit: 1, cursor: first.data.next_cursor! });
    expect([first, second].map((page) => page.data.products[0]!.product_id).sort()).toEqual(
      [shop.productId, other.productId].sort(),
    );
    const err = await rejection(staging.client.catalog.list({ limit: 0 }));
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(err.code).toBe('VALIDATION_ERROR');
  });

  it('get answers the product; an unknown one is NotFoundError PRODUCT_NOT_FOUND', async () => {
    const res = await staging.client.catalog.get(shop.productId);
    expect(res.data).toMatchObject({
      product_id: shop.productId,
      vendor_id: shop.vendorId,
      currency: 'GHS',
      variants: [{ variant_id: shop.variantId, price_ghs: 180, in_stock: true }],
    });
    const err = await rejection(staging.client.catalog.get('prd_00000000000000000000000000'));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.code).toBe('PRODUCT_NOT_FOUND');
  });

  it('orders.create (cod), verify, get by sale_id and external_reference', async () => {
    const body = sale();
    const created = await production.client.catalog.orders.create(body);
    expect(created.data).toMatchObject({
      checkout_url: null,
      state: 'awaiting_delivery',
      markup_ghs: 0,
      subtotal_ghs: 180,
    });
    expect(created.recovered).toBeUndefined();
    const saleId = created.data.sale_id;
    expect((await production.client.catalog.orders.verify(saleId)).data).toMatchObject({
      sale_id: saleId,
      state: 'awaiting_delivery',
      settled: false,
    });
    const byId = await production.client.catalog.orders.get({ sale_id: saleId });
    expect(byId.data).toMatchObject({
      sale_id: saleId,
      external_reference: body.external_reference,
      payment_method: 'cod',
      total_ghs: created.data.total_ghs,
    });
    expect(
      (await production.client.catalog.orders.get({ external_reference: body.external_reference }))
        .data.sale_id,
    ).toBe(saleId);
  });

  it('orders errors are typed: staging key, cod markup, first-attempt duplicate, unknown sale', async () => {
    const staged = await rejection(staging.client.catalog.orders.create(sale()));
    expect(staged).toBeInstanceOf(PermissionError);
    expect(staged.code).toBe('PRODUCTION_KEY_REQUIRED');
    expect(
      (await rejection(production.client.catalog.orders.create(sale({ reseller_markup_ghs: 5 }))))
        .code,
    ).toBe('MARKUP_NOT_SUPPORTED_FOR_COD');
    const body = sale();
    await production.client.catalog.orders.create(body);
    const dup = await rejection(production.client.catalog.orders.create(body));
    expect(dup).toBeInstanceOf(ConflictError);
    expect(dup).toMatchObject({ code: 'DUPLICATE_REFERENCE', attempts: 1 });
    const unknown = 'sale_00000000000000000000000000';
    for (const call of [
      () => production.client.catalog.orders.verify(unknown),
      () => production.client.catalog.orders.get({ sale_id: unknown }),
    ]) {
      const err = await rejection(call());
      expect(err).toBeInstanceOf(NotFoundError);
      expect(err.code).toBe('SALE_NOT_FOUND');
    }
  });

  it('orders.create (online): a lost answer is retried and the landed sale is returned with its checkout URL', async () => {
    const body = sale({ payment_method: 'online', reseller_markup_ghs: 20 });
    const { client, seen } = scripted(
      { apiKey: production.apiKey, signingSecret: production.signingSecret, baseUrl: p.url },
      [landThenLose],
    );
    const res = await client.catalog.orders.create(body);
    expect(res.recovered).toBe(true);
    const stored = (
      await production.client.catalog.orders.get({ external_reference: body.external_reference })
    ).data;
    expect(res.data).toEqual({
      sale_id: stored.sale_id,
      reference: stored.reference,
      checkout_url: stored.checkout_url,
      subtotal_ghs: 180,
      delivery_fee_ghs: stored.delivery_fee_ghs,
      markup_ghs: 20,
      total_ghs: stored.total_ghs,
    });
    expect(res.data.checkout_url).toMatch(/\/sandbox\/checkout\//);
    expect(seen.map((x) => x.path.split('/').at(-1))).toEqual([
      'orders.create',
      'orders.create',
      'orders.get',
    ]);
    expect(seen[0]!.body).toBe(seen[1]!.body);
  });
});
