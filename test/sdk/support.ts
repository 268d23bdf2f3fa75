import {
  type PartnerApiError,
  PartnerClient,
  type ClientOptions,
  type SafeOrderRequest,
} from '@partner-platform/sdk';
import { expect } from 'vitest';
import type { TestPlatform } from '../helpers/harness.ts';

/** One scripted fetch: answer, fail, or pass to the real server. */
export type Step = (input: RequestInfo | URL, init: RequestInit) => Promise<Response>;

export interface Seen {
  path: string;
  nonce: string;
  timestamp: string;
  body: string | undefined;
}

export const netError =
  (code: string): Step =>
  async () => {
    throw new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
  };

export const answer =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  async () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });

/** The request reaches the server and takes effect, but its answer is lost on the way back. */
export const landThenLose: Step = async (input, init) => {
  await (await fetch(input, init)).text();
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
  });
};

/** A client whose first fetches follow `steps`; later ones go to the real server. Records every attempt. */
export function scripted(
  creds: { apiKey: string; signingSecret: string; baseUrl: string },
  steps: Step[],
  options: Partial<ClientOptions> = {},
) {
  const seen: Seen[] = [];
  const queue = [...steps];
  const fetchImpl: typeof fetch = async (input, init = {}) => {
    const headers = init.headers as Record<string, string>;
    seen.push({
      path: new URL(String(input)).pathname,
      nonce: headers['x-nonce']!,
      timestamp: headers['x-timestamp']!,
      body: init.body as string | undefined,
    });
    const step = queue.shift();
    return step ? step(input, init) : fetch(input, init);
  };
  const client = new PartnerClient({ ...creds, retryBaseDelayMs: 5, fetch: fetchImpl, ...options });
  return { client, seen };
}

/** The error a call rejects with (fails the test when it resolves). */
export async function rejection<T = PartnerApiError>(
  call: Promise<unknown>,
): Promise<T & Record<string, any>> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected the call to fail').toBeInstanceOf(Error);
  return err as T & Record<string, any>;
}

export interface Shop {
  vendorId: string;
  productId: string;
  variantId: string;
}

/** D9: a syndicated vendor with one product of one variant (50 in stock, GHS 180), made through the operator API. */
export async function createShop(p: TestPlatform): Promise<Shop> {
  const admin = async (path: string, body: unknown) => {
    const res = await p.admin('POST', path, body);
    if (res.status >= 300)
      throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const vendor = await admin('/vendors', {
    name: 'Makola Kente House',
    syndicatable: true,
    commission_rate: 0.1,
    pickup: {
      contact_person: 'Efua Asante',
      contact_phone: '024 555 0101',
      address: 'Makola Market, Accra',
      coordinates: { lat: 5.556, lng: -0.179 },
    },
  });
  const product = await admin('/products', {
    vendor_id: vendor.vendor_id,
    title: 'Handwoven kente stole',
    description: 'Bonwire kente, 2 m.',
    images: ['https://images.example.com/kente.jpg'],
    category: 'Fashion',
    active: true,
    variants: [{ label: 'Gold and green', price_ghs: 180, stock: 50 }],
  });
  return {
    vendorId: vendor.vendor_id,
    productId: product.product_id,
    variantId: product.variants[0].variant_id,
  };
}

/** A cash-on-delivery safe-catalog order for one unit of the shop's product, with a fresh external_reference. */
export const saleBody = (shop: Shop, extra: Partial<SafeOrderRequest> = {}): SafeOrderRequest => ({
  payment_method: 'cod',
  vendor_id: shop.vendorId,
  items: [{ product_id: shop.productId, variant_id: shop.variantId, quantity: 1 }],
  buyer: { name: 'Ama Mensah', phone: '024 123 4567' },
  delivery: { address: '12 Lagos Avenue, East Legon, Accra', lat: 5.635, lng: -0.161 },
  external_reference: `ext-${crypto.randomUUID()}`,
  ...extra,
});
