import { ConflictError, InvalidRequestError, NotFoundError, PermissionError, type SafeOrderRequest } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, startPlatform, type PartnerSetup, type TestPlatform } from '../helpers/harness.ts';
import { landThenLose, rejection, scripted } from './support.ts';

let p: TestPlatform;
let staging: PartnerSetup;
let production: PartnerSetup;
let shop: { vendorId: string; productId: string; variantId: string };

async function admin<T = any>(method: string, path: string, body: unknown): Promise<T> {
  const res = await p.admin(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  p = await startPlatform();
  const scopes = ['safe:read', 'safe:write', 'delivery:read', 'delivery:write'];
  [staging, production] = await Promise.all([createPartner(p), createPartner(p, { environment: 'production', scopes })]);
  // D9: a syndicated vendor with one product.
  const vendor = await admin('POST', '/vendors', {
    name: 'Makola Kente House',
    syndicatable: true,
    commission_rate: 0.1,
    pickup: { contact_person: 'Efua Asante', contact_phone: '024 555 0101', address: 'Makola Market, Accra', coordinates: { lat: 5.556, lng: -0.179 } },
  });
  const product = await admin('POST', '/products', {
    vendor_id: vendor.vendor_id,
    title: 'Handwoven kente stole',
    description: 'Bonwire kente, 2 m.',
    images: ['https://images.example.com/kente.jpg'],
    category: 'Fashion',
    active: true,
    variants: [{ label: 'Gold and green', price_ghs: 180, stock: 50 }],
  });
  shop = { vendorId: vendor.vendor_id, productId: product.product_id, variantId: product.variants[0].variant_id };
});
afterAll(() => p.close());

const sale = (extra: Partial<SafeOrderRequest> = {}): SafeOrderRequest => ({
  payment_method: 'cod',
  vendor_id: shop.vendorId,
  items: [{ product_id: shop.productId, variant_id: shop.variantId, quantity: 1 }],
  buyer: { name: 'Ama Mensah', phone: '024 123 4567' },
  delivery: { address: '12 Lagos Avenue, East Legon, Accra', lat: 5.635, lng: -0.161 },
  external_reference: `ext-${crypto.randomUUID()}`,
  ...extra,
});

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
    const first = await staging.client.catalog.list({ limit: 1 });
    expect(first.data.count).toBe(1);
    const err = await rejection(staging.client.catalog.list({ limit: 0 }));
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(err.code).toBe('VALIDATION_ERROR');
  });

  it('get answers the product; an unknown one is NotFoundError PRODUCT_NOT_FOUND', async () => {
    const res = await staging.client.catalog.get(shop.productId);
    expect(res.data).toMatchObject({ product_id: shop.productId, vendor_id: shop.vendorId, currency: 'GHS', variants: [{ variant_id: shop.variantId, price_ghs: 180, in_stock: true }] });
    const err = await rejection(staging.client.catalog.get('prd_00000000000000000000000000'));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.code).toBe('PRODUCT_NOT_FOUND');
  });

  it('orders.create (cod), verify, get by sale_id and external_reference', async () => {
    const body = sale();
    const created = await production.client.catalog.orders.create(body);
    expect(created.data).toMatchObject({ checkout_url: null, state: 'awaiting_delivery', markup_ghs: 0, subtotal_ghs: 180 });
    expect(created.recovered).toBeUndefined();
    const saleId = created.data.sale_id;
    expect((await production.client.catalog.orders.verify(saleId)).data).toMatchObject({ sale_id: saleId, state: 'awaiting_delivery', settled: false });
    const byId = await production.client.catalog.orders.get({ sale_id: saleId });
    expect(byId.data).toMatchObject({ sale_id: saleId, external_reference: body.external_reference, payment_method: 'cod', total_ghs: created.data.total_ghs });
    expect((await production.client.catalog.orders.get({ external_reference: body.external_reference })).data.sale_id).toBe(saleId);
  });

  it('orders errors are typed: staging key, cod markup, first-attempt duplicate, unknown sale', async () => {
    const staged = await rejection(staging.client.catalog.orders.create(sale()));
    expect(staged).toBeInstanceOf(PermissionError);
    expect(staged.code).toBe('PRODUCTION_KEY_REQUIRED');
    expect((await rejection(production.client.catalog.orders.create(sale({ reseller_markup_ghs: 5 })))).code).toBe('MARKUP_NOT_SUPPORTED_FOR_COD');
    const body = sale();
    await production.client.catalog.orders.create(body);
    const dup = await rejection(production.client.catalog.orders.create(body));
    expect(dup).toBeInstanceOf(ConflictError);
    expect(dup).toMatchObject({ code: 'DUPLICATE_REFERENCE', attempts: 1 });
    const unknown = 'sale_00000000000000000000000000';
    for (const call of [() => production.client.catalog.orders.verify(unknown), () => production.client.catalog.orders.get({ sale_id: unknown })]) {
      const err = await rejection(call());
      expect(err).toBeInstanceOf(NotFoundError);
      expect(err.code).toBe('SALE_NOT_FOUND');
    }
  });

  it('orders.create (online): a lost answer is retried and the landed sale is returned with its checkout URL', async () => {
    const body = sale({ payment_method: 'online', reseller_markup_ghs: 20 });
    const { client, seen } = scripted({ apiKey: production.apiKey, signingSecret: production.signingSecret, baseUrl: p.url }, [landThenLose]);
    const res = await client.catalog.orders.create(body);
    expect(res.recovered).toBe(true);
    const stored = (await production.client.catalog.orders.get({ external_reference: body.external_reference })).data;
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
    expect(seen.map((x) => x.path.split('/').at(-1))).toEqual(['orders.create', 'orders.create', 'orders.get']);
    expect(seen[0]!.body).toBe(seen[1]!.body);
  });
});
