import { afterAll, beforeAll, expect } from 'vitest';
import { hubtelEnv, startFakeHubtel, type FakeHubtel } from '../fakes/hubtel.ts';
import type { FakeTransfers } from '../fakes/transfers.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../helpers/harness.ts';

/** A production key that can place and verify orders (safe:write is never implied by a wildcard) and read its deliveries. */
export const SALE_SCOPES = ['safe:read', 'safe:write', 'delivery:read', 'delivery:write'];

export function salesPartner(p: TestPlatform): Promise<PartnerSetup> {
  return createPartner(p, { environment: 'production', scopes: SALE_SCOPES });
}

/** Starts, for the file, a platform and a sales partner; `started` is handed both. */
export function useSalesPlatform(started: (set: { p: TestPlatform; s: PartnerSetup }) => void) {
  let p: TestPlatform | undefined;
  beforeAll(async () => {
    p = await startPlatform();
    started({ p, s: await salesPartner(p) });
  });
  afterAll(() => p?.close());
}

/** Starts, for the file, a fake Hubtel, a platform paying through it and sending transfers by `transfers`, and a sales partner; `started` is handed all three. */
export function useHubtelSalesPlatform(
  transfers: FakeTransfers,
  started: (set: { hubtel: FakeHubtel; p: TestPlatform; s: PartnerSetup }) => void,
) {
  let hubtel: FakeHubtel | undefined;
  let p: TestPlatform | undefined;
  beforeAll(async () => {
    hubtel = await startFakeHubtel();
    p = await startPlatform({ socket: false, env: hubtelEnv(hubtel), transfers });
    started({ hubtel, p, s: await salesPartner(p) });
  });
  afterAll(async () => {
    await p?.close();
    await hubtel?.close();
  });
}

/** Osu, Accra: a Ghana pickup point. */
export const OSU = { lat: 5.556, lng: -0.179 };
export const EAST_LEGON = { lat: 5.635, lng: -0.161 };

async function ok<T = any>(res: Promise<{ status: number; body: T }>, status = 201): Promise<T> {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
}

export function vendorBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Makola Kente House',
    syndicatable: true,
    commission_rate: 0.1,
    pickup: {
      contact_person: 'Efua Asante',
      contact_phone: '024 555 0101',
      address: 'Makola Market, Accra',
      coordinates: OSU,
    },
    ...overrides,
  };
}

export const createVendor = (p: TestPlatform, overrides: Record<string, unknown> = {}) =>
  ok(p.admin('POST', '/vendors', vendorBody(overrides)));

export function productBody(vendorId: string, overrides: Record<string, unknown> = {}) {
  return {
    vendor_id: vendorId,
    title: 'Handwoven kente stole',
    description: 'Bonwire kente, 2 m.',
    images: ['https://images.example.com/kente.jpg'],
    category: 'Fashion',
    active: true,
    variants: [
      { label: 'Gold and green', price_ghs: 180, stock: 10 },
      { label: 'Blue and silver', price_ghs: 195.5, stock: 3 },
    ],
    ...overrides,
  };
}

export const createProduct = (
  p: TestPlatform,
  vendorId: string,
  overrides: Record<string, unknown> = {},
) => ok(p.admin('POST', '/products', productBody(vendorId, overrides)));

/** A vendor with one product; answers the ids an order needs. */
export async function shop(
  p: TestPlatform,
  opts: { vendor?: Record<string, unknown>; product?: Record<string, unknown> } = {},
) {
  const vendor = await createVendor(p, opts.vendor);
  const product = await createProduct(p, vendor.vendor_id, opts.product);
  return {
    vendor,
    product,
    vendorId: vendor.vendor_id as string,
    productId: product.product_id as string,
    variantId: product.variants[0].variant_id as string,
  };
}

export function orderBody(
  s: { vendorId: string; productId: string; variantId: string },
  overrides: Record<string, unknown> = {},
): Record<string, any> {
  return {
    payment_method: 'cod',
    vendor_id: s.vendorId,
    items: [{ product_id: s.productId, variant_id: s.variantId, quantity: 1 }],
    buyer: { name: 'Ama Mensah', phone: '024 123 4567' },
    delivery: {
      address: '12 Lagos Avenue, East Legon, Accra',
      lat: EAST_LEGON.lat,
      lng: EAST_LEGON.lng,
    },
    external_reference: `ext-${crypto.randomUUID()}`,
    ...overrides,
  };
}

type Res = { status: number; body: any; headers: Record<string, string> };
export const createOrder = (s: PartnerSetup, body: unknown): Promise<Res> =>
  s.client.send('POST', '/api/v1/safe-catalog/orders.create', { body });
export const verifySale = (s: PartnerSetup, sale_id: string): Promise<Res> =>
  s.client.send('POST', '/api/v1/safe-catalog/orders.verify', { body: { sale_id } });
export const getSale = (s: PartnerSetup, query: Record<string, string>): Promise<Res> =>
  s.client.send('GET', '/api/v1/safe-catalog/orders.get', { query });

export async function placed(s: PartnerSetup, body: unknown): Promise<any> {
  const res = await createOrder(s, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** Free units of a variant, straight from the database. */
export async function stockOf(
  p: TestPlatform,
  variantId: string,
): Promise<{ stock: number; reserved: number }> {
  const rows = await p.app.platform.db.query<{ stock: number; reserved: number }>(
    'select stock, reserved from product_variants where id = $1',
    [variantId],
  );
  return rows[0]!;
}

export { decide } from '../wallet/helpers.ts';

/** The journals about a sale and its refund's attempts (keyed by each attempt's reference), by kind, oldest first. */
export async function journals(
  p: TestPlatform,
  saleId: string,
): Promise<Array<{ kind: string; entries: Record<string, number> }>> {
  const rows = await p.app.platform.db.query<{
    kind: string;
    account: string;
    amount_pesewas: number;
  }>(
    `select j.kind, e.account, e.amount_pesewas from ledger_journals j join ledger_entries e on e.journal_id = j.id
      where j.subject_id = $1 or j.subject_id in (select unnest(array_append(r.earlier_references, r.reference)) from sale_refunds r where r.sale_id = $1)
      order by j.created_at, j.id, e.account`,
    [saleId],
  );
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) out.set(r.kind, { ...out.get(r.kind), [r.account]: r.amount_pesewas });
  return [...out].map(([kind, entries]) => ({ kind, entries }));
}

export async function expectLedgerBalanced(p: TestPlatform): Promise<void> {
  const unbalanced = await p.app.platform.db.query(
    'select journal_id from ledger_entries group by journal_id having sum(amount_pesewas) <> 0',
  );
  expect(unbalanced).toEqual([]);
}

/** The buyer's wallet finance confirms for a mobile money refund. */
export const BUYER_WALLET = { network: 'mtn', number: '024 555 0101', name: 'Ama Mensah' };

/** A Hubtel-paid sale (Hubtel cannot refund: its refund goes to a wallet) whose delivery was cancelled: owed back. */
export async function hubtelOwedSale(
  p: TestPlatform,
  s: PartnerSetup,
  hubtel: FakeHubtel,
): Promise<{ saleId: string; total: number }> {
  const b = await shop(p);
  const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
  hubtel.pay(
    (
      await p.app.platform.db.query<{ client_reference: string }>(
        'select client_reference from sales where id = $1',
        [sale.sale_id],
      )
    )[0]!.client_reference,
  );
  expect((await verifySale(s, sale.sale_id)).body.data).toMatchObject({ state: 'confirmed' });
  const orderId = (await getSale(s, { sale_id: sale.sale_id })).body.data.delivery.order_id;
  expect(
    (await p.admin('POST', `/delivery/orders/${orderId}/status`, { status: 'cancelled' })).status,
  ).toBe(200);
  return { saleId: sale.sale_id, total: Math.round(sale.total_ghs * 100) };
}

/** Such a sale refunded to the buyer's wallet: succeeded. */
export async function refundedToWallet(
  p: TestPlatform,
  s: PartnerSetup,
  hubtel: FakeHubtel,
): Promise<{ saleId: string; total: number; reference: string }> {
  const owed = await hubtelOwedSale(p, s, hubtel);
  const refunds = p.app.platform.catalog!.refunds;
  await refunds.tick();
  const sent = await refunds.sendTo(owed.saleId, BUYER_WALLET);
  expect(sent.status).toBe('succeeded');
  return { ...owed, reference: sent.reference };
}

/** The reversal check of the sale's succeeded refund comes due now (the job asks every SALE_REFUND_RECHECK_MINUTES). */
export const reversalCheckDue = (p: TestPlatform, saleId: string) =>
  p.app.platform.db.query(
    "update sale_refunds set next_check_at = now() - interval '1 second' where sale_id = $1 and status = 'succeeded'",
    [saleId],
  );
