import type { Exchange, PartnerClient } from './client.ts';
import { unwrap } from './errors.ts';
import { OPERATIONS } from './operations.ts';
import { backoffMs, sleep } from './retry.ts';
import type {
  CatalogListQuery,
  CatalogListResponse,
  CatalogProductResponse,
  HealthOk,
  PayoutListQuery,
  PayoutListResponse,
  PayoutResponse,
  SafeOrderCreateResponse,
  SafeOrderLookup,
  SafeOrderRequest,
  SafeOrderResponse,
  SafeOrderVerifyResponse,
} from './types.ts';

export type CatalogApi = ReturnType<typeof catalogApi>;

const isDuplicate = (res: Exchange) =>
  res.status === 409 && (res.body as { code?: unknown } | null)?.code === 'DUPLICATE_REFERENCE';

/** The sale holding `externalReference`, polled briefly while the first attempt may still be committing. */
async function findLanded(
  client: PartnerClient,
  externalReference: string,
): Promise<SafeOrderResponse | undefined> {
  const tries = (client.options.maxRetries ?? 2) + 1;
  for (let i = 1; i <= tries; i++) {
    const res = await client.call<SafeOrderResponse>(OPERATIONS['safe-catalog.orders.get'], {
      query: { external_reference: externalReference },
    });
    if (res.status !== 404) return unwrap(res);
    if (i < tries)
      await sleep(
        backoffMs(
          i,
          client.options.retryBaseDelayMs ?? 500,
          client.options.retryMaxDelayMs ?? 8_000,
        ),
      );
  }
  return undefined;
}

export function catalogApi(client: PartnerClient) {
  const get = async <T>(
    id: keyof typeof OPERATIONS,
    query?: Record<string, string | number | undefined>,
  ): Promise<T> =>
    unwrap(await client.call<T>(OPERATIONS[id], query === undefined ? {} : { query }));

  return {
    health: () => get<HealthOk>('safe-catalog.health'),
    /** A page of products of syndicated vendors; pass `next_cursor` back as `cursor`. */
    list: (query: CatalogListQuery = {}) =>
      get<CatalogListResponse>('safe-catalog.catalog.list', {
        vendor_id: query.vendor_id,
        limit: query.limit,
        cursor: query.cursor,
      }),
    /** 404 PRODUCT_NOT_FOUND unless the product is active and its vendor syndicatable. */
    get: (productId: string) =>
      get<CatalogProductResponse>('safe-catalog.catalog.get', { product_id: productId }),

    orders: {
      /**
       * Places an order (production keys). Retried with the same `external_reference`; a 409
       * DUPLICATE_REFERENCE after an attempt that may have landed fetches that sale (orders.get by
       * external_reference) and returns it as the create answer, with `recovered: true`.
       */
      async create(order: SafeOrderRequest): Promise<SafeOrderCreateResponse> {
        const res = await client.call<SafeOrderCreateResponse>(
          OPERATIONS['safe-catalog.orders.create'],
          { body: order },
        );
        if (isDuplicate(res) && res.earlierMayHaveLanded) {
          const found = await findLanded(client, order.external_reference);
          if (found) {
            const s = found.data;
            return {
              status: 'success',
              data: {
                sale_id: s.sale_id,
                reference: s.reference,
                checkout_url: s.payment_method === 'online' ? (s.checkout_url ?? null) : null,
                ...(s.payment_method === 'cod' ? { state: s.state } : {}),
                subtotal_ghs: s.subtotal_ghs,
                delivery_fee_ghs: s.delivery_fee_ghs,
                markup_ghs: s.markup_ghs,
                total_ghs: s.total_ghs,
              },
              recovered: true,
            };
          }
        }
        return unwrap(res);
      },
      /** Settles once paid (online) or delivered (cod); idempotent, so safe to poll. */
      verify: async (saleId: string) =>
        unwrap(
          await client.call<SafeOrderVerifyResponse>(OPERATIONS['safe-catalog.orders.verify'], {
            body: { sale_id: saleId },
          }),
        ),
      /** By `{ sale_id }` or by your `{ external_reference }`. */
      get: (lookup: SafeOrderLookup) =>
        get<SafeOrderResponse>(
          'safe-catalog.orders.get',
          'sale_id' in lookup
            ? { sale_id: lookup.sale_id }
            : { external_reference: lookup.external_reference },
        ),
    },

    /** Payouts of your markup (production keys holding payouts:read): each amount in pesewas and in GHS (`*_ghs`). */
    payouts: {
      /** Newest first, with your balance; pass `next_cursor` back as `cursor`. */
      list: (query: PayoutListQuery = {}) =>
        get<PayoutListResponse>('safe-catalog.payouts.list', {
          status: query.status,
          limit: query.limit,
          cursor: query.cursor,
        }),
      /** One payout with its remittance lines; 404 PAYOUT_NOT_FOUND for another partner's. */
      get: (payoutId: string) =>
        get<PayoutResponse>('safe-catalog.payouts.get', { payout_id: payoutId }),
    },
  };
}
