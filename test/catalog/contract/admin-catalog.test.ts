import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import {
  createVendor,
  orderBody,
  placed,
  productBody,
  salesPartner,
  shop,
  vendorBody,
} from '../helpers.ts';

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
});
afterAll(() => p.close());

describe('operator API: vendors', () => {
  it('creates a vendor with a normalised phone and answers it with GHS-free fields', async () => {
    const res = await p.admin('POST', '/vendors', vendorBody({ commission_rate: 0.125 }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      vendor_id: expect.stringMatching(/^ven_/),
      name: 'Makola Kente House',
      syndicatable: true,
      commission_rate: 0.125,
      pickup: {
        contact_person: 'Efua Asante',
        contact_phone: '+233245550101',
        address: 'Makola Market, Accra',
        coordinates: { lat: 5.556, lng: -0.179 },
      },
    });
    expect((await p.admin('GET', `/vendors/${res.body.vendor_id}`)).body).toEqual(res.body);
  });

  it('refuses a bad phone, a point outside Ghana, a rate outside 0..1 or with more than 4 decimals, unknown fields', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { pickup: { ...vendorBody().pickup, contact_phone: '+44 20 7946 0000' } },
        'pickup.contact_phone',
      ],
      [
        { pickup: { ...vendorBody().pickup, coordinates: { lat: 51.5, lng: -0.12 } } },
        'pickup.coordinates',
      ],
      [{ commission_rate: 1.5 }, 'commission_rate'],
      [{ commission_rate: 0.12345 }, 'commission_rate'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [overrides, field] of cases) {
      const res = await p.admin('POST', '/vendors', vendorBody(overrides));
      expect([res.status, res.body.code], field).toEqual([400, 'VALIDATION_ERROR']);
      expect(
        res.body.details.map((d: any) => d.field),
        field,
      ).toContain(field);
    }
  });

  it('patches any field, and turning syndication off takes its products out of the catalog', async () => {
    const s = await shop(p);
    const patched = await p.admin('PATCH', `/vendors/${s.vendorId}`, {
      name: 'Kente House',
      pickup: { contact_phone: '0205550102' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Kente House',
      pickup: { contact_phone: '+233205550102', contact_person: 'Efua Asante' },
    });
    expect((await p.admin('GET', `/products/${s.productId}`)).body).toMatchObject({
      listed: true,
      vendor_name: 'Kente House',
    });
    await p.admin('PATCH', `/vendors/${s.vendorId}`, { syndicatable: false });
    expect((await p.admin('GET', `/products/${s.productId}`)).body).toMatchObject({
      active: true,
      listed: false,
    });
    await p.admin('PATCH', `/vendors/${s.vendorId}`, { syndicatable: true });
    expect((await p.admin('GET', `/products/${s.productId}`)).body.listed).toBe(true);
    expect((await p.admin('PATCH', '/vendors/ven_missing', { name: 'x' })).status).toBe(404);
  });

  it('lists vendors in pages', async () => {
    await createVendor(p);
    const first = await p.admin('GET', '/vendors?limit=1');
    expect(first.body.vendors).toHaveLength(1);
    const next = await p.admin('GET', `/vendors?limit=1&after=${first.body.next_after}`);
    expect(next.body.vendors[0].vendor_id > first.body.vendors[0].vendor_id).toBe(true);
  });
});

describe('operator API: products', () => {
  it('creates a product: the catalog product plus stock per variant, prices in GHS', async () => {
    const vendor = await createVendor(p);
    const res = await p.admin('POST', '/products', productBody(vendor.vendor_id));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      product_id: expect.stringMatching(/^prd_/),
      vendor_id: vendor.vendor_id,
      vendor_name: 'Makola Kente House',
      currency: 'GHS',
      category: 'Fashion',
      active: true,
      listed: true,
      variants: [
        {
          variant_id: expect.stringMatching(/^var_/),
          label: 'Gold and green',
          price_ghs: 180,
          in_stock: true,
          stock: 10,
          reserved: 0,
          available: 10,
        },
        { label: 'Blue and silver', price_ghs: 195.5, stock: 3 },
      ],
    });
    const stored = await p.app.platform.db.query<{ price_pesewas: number }>(
      'select price_pesewas from product_variants where product_id = $1 order by position',
      [res.body.product_id],
    );
    expect(stored.map((r) => r.price_pesewas)).toEqual([18000, 19550]);
  });

  it('refuses prices with more than 2 decimals or not above 0, no variants, an unknown vendor', async () => {
    const vendor = await createVendor(p);
    const bad = [
      productBody(vendor.vendor_id, { variants: [{ label: 'A', price_ghs: 10.005, stock: 1 }] }),
      productBody(vendor.vendor_id, { variants: [{ label: 'A', price_ghs: 0, stock: 1 }] }),
      productBody(vendor.vendor_id, { variants: [] }),
      productBody(vendor.vendor_id, { variants: [{ label: 'A', price_ghs: 10, stock: -1 }] }),
      productBody('ven_unknown'),
    ];
    for (const body of bad) {
      const res = await p.admin('POST', '/products', body);
      expect([res.status, res.body.code], JSON.stringify(body.variants)).toEqual([
        400,
        'VALIDATION_ERROR',
      ]);
    }
  });

  it('switches a product off and on, and sets variant stock, price and in_stock', async () => {
    const s = await shop(p);
    const [v1, v2] = (await p.admin('GET', `/products/${s.productId}`)).body.variants;
    const off = await p.admin('PATCH', `/products/${s.productId}`, { active: false });
    expect(off.body).toMatchObject({ active: false, listed: false });
    const on = await p.admin('PATCH', `/products/${s.productId}`, {
      active: true,
      variants: [
        { variant_id: v1.variant_id, stock: 0, price_ghs: 175.25 },
        { variant_id: v2.variant_id, in_stock: false },
      ],
    });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ active: true, listed: true });
    expect(on.body.variants[0]).toMatchObject({ price_ghs: 175.25, stock: 0, in_stock: false });
    expect(on.body.variants[1]).toMatchObject({ stock: 3, in_stock: false, sellable: false });
    const back = await p.admin('PATCH', `/products/${s.productId}`, {
      variants: [{ variant_id: v2.variant_id, in_stock: true }],
    });
    expect(back.body.variants[1].in_stock).toBe(true);
    const foreign = await p.admin('PATCH', `/products/${s.productId}`, {
      variants: [{ variant_id: 'var_other', stock: 1 }],
    });
    expect([foreign.status, foreign.body.details[0].field]).toEqual([400, 'variants.0.variant_id']);
    expect((await p.admin('PATCH', '/products/prd_missing', { active: true })).body.code).toBe(
      'PRODUCT_NOT_FOUND',
    );
  });

  it('never lets stock drop below the units reserved by open orders', async () => {
    const s = await shop(p);
    const partner = await salesPartner(p);
    await placed(
      partner,
      orderBody(s, { items: [{ product_id: s.productId, variant_id: s.variantId, quantity: 4 }] }),
    );
    const res = await p.admin('PATCH', `/products/${s.productId}`, {
      variants: [{ variant_id: s.variantId, stock: 3 }],
    });
    expect([res.status, res.body.details[0].field]).toEqual([400, 'variants.0.stock']);
    const ok = await p.admin('PATCH', `/products/${s.productId}`, {
      variants: [{ variant_id: s.variantId, stock: 4 }],
    });
    expect(ok.body.variants[0]).toMatchObject({
      stock: 4,
      reserved: 4,
      available: 0,
      in_stock: false,
    });
  });

  it('lists products for operators, listed or not, by vendor', async () => {
    const s = await shop(p, { product: { active: false } });
    const res = await p.admin('GET', `/products?vendor_id=${s.vendorId}`);
    expect(res.body.products.map((x: any) => [x.product_id, x.listed])).toEqual([
      [s.productId, false],
    ]);
  });
});
