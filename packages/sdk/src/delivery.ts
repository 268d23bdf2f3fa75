import type { Exchange, PartnerClient } from './client.ts';
import { unwrap } from './errors.ts';
import { OPERATIONS } from './operations.ts';
import { backoffMs, sleep } from './retry.ts';
import { testClocksApi } from './test-clocks.ts';
import type {
  BulkCreateResponse,
  BulkOptions,
  CancelOrderResponse,
  CreateOrderRequest,
  CreateOrderResponse,
  EstimateRequest,
  EstimateResponse,
  HealthOk,
  LocationFilters,
  LocationsResponse,
  MessageSettingsChange,
  MessageSettingsResponse,
  OrderDetailsResponse,
  TopupInitiateResponse,
  TopupVerifyResponse,
  TrackingResponse,
  WalletBalanceResponse,
} from './types.ts';

export type DeliveryApi = ReturnType<typeof deliveryApi>;

const DUPLICATE = 'DUPLICATE_ORDER_REFERENCE';

const isDuplicate = (res: Exchange) =>
  res.status === 409 && (res.body as { code?: unknown } | null)?.code === DUPLICATE;

/**
 * Finds an order by reference after a duplicate answer. The first attempt may still be committing
 * ("landed or is still completing"), so a 404 is polled a few times before giving up.
 */
async function findLanded(
  client: PartnerClient,
  ref: string,
): Promise<OrderDetailsResponse | undefined> {
  const tries = (client.options.maxRetries ?? 2) + 1;
  for (let i = 1; i <= tries; i++) {
    const res = await client.call<OrderDetailsResponse>(OPERATIONS['delivery.orders.get'], {
      body: { order_reference: ref },
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

/** The named optional fields that are present, so a recovered answer has what the 201 had. */
function pick<T extends object, K extends keyof T>(
  from: T,
  keys: readonly K[],
): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  return out;
}

/** Builds the create answer from the order that an earlier, unanswered attempt created. */
async function recoveredCreate(
  client: PartnerClient,
  found: OrderDetailsResponse,
): Promise<CreateOrderResponse> {
  const order = found.data;
  const track = unwrap(
    await client.call<TrackingResponse>(OPERATIONS['delivery.orders.track'], {
      body: { order_id: order.internal_order_id },
    }),
  );
  return {
    status: 'success',
    message: 'Order created (an earlier attempt landed; confirmed with orders.get)',
    data: {
      order_details: {
        order_id: order.internal_order_id,
        estimated_delivery: track.data.estimated_delivery_time ?? '',
        order_reference: order.order_reference,
        tracking_url: order.tracking_url,
        ...(order.order_info.amount !== undefined ? { amount: order.order_info.amount } : {}),
        ...pick(order.order_info, [
          'pickup_digital_address',
          'delivery_digital_address',
          'quote_id',
          'pickup_ready_at',
          'dropoff_deadline',
        ] as const),
      },
      status: 'order_created',
    },
    recovered: true,
  };
}

export function deliveryApi(client: PartnerClient) {
  const call = async <T>(id: keyof typeof OPERATIONS, body?: unknown): Promise<T> =>
    unwrap(await client.call<T>(OPERATIONS[id], body === undefined ? {} : { body }));

  return {
    health: () => call<HealthOk>('delivery.health'),

    orders: {
      /**
       * Creates an order. Retried with the same body (same order_reference) on network errors, 429
       * and 5xx. A 409 DUPLICATE_ORDER_REFERENCE after an attempt that may have landed means it did:
       * the order is fetched and returned (with `recovered: true`). On the first attempt, or after
       * attempts that provably changed nothing, it is a real duplicate and throws.
       */
      async create(order: CreateOrderRequest): Promise<CreateOrderResponse> {
        const res = await client.call<CreateOrderResponse>(OPERATIONS['delivery.orders.create'], {
          body: order,
        });
        if (isDuplicate(res) && res.earlierMayHaveLanded) {
          const found = await findLanded(client, order.order_reference);
          if (found) return recoveredCreate(client, found);
        }
        return unwrap(res);
      },

      /**
       * Creates 1 to 100 orders, each as orders.create. After a retry, items answered with
       * DUPLICATE_ORDER_REFERENCE are looked up and reported as created when an earlier attempt may
       * have landed them. With `findExisting`, such items of a first attempt are looked up too and
       * marked `existing` with their `order_id` (re-running a batch).
       */
      async createBulk(
        orders: CreateOrderRequest[],
        options: BulkOptions = {},
      ): Promise<BulkCreateResponse> {
        const res = await client.call<BulkCreateResponse>(
          OPERATIONS['delivery.orders.create_bulk'],
          { body: { orders } },
        );
        const out = unwrap(res);
        if (!res.earlierMayHaveLanded && !options.findExisting) return out;
        const duplicates = out.results.filter(
          (r) => !r.ok && r.code === DUPLICATE && r.order_reference !== null,
        );
        // A few lookups at a time, like the server's own bulk concurrency.
        for (let i = 0; i < duplicates.length; i += 5) {
          await Promise.all(
            duplicates.slice(i, i + 5).map(async (item) => {
              const found = await findLanded(client, item.order_reference!);
              if (!found) return;
              item.order_id = found.data.internal_order_id;
              if (!res.earlierMayHaveLanded) {
                item.existing = true;
                return;
              }
              Object.assign(item, { ok: true, status_code: 201 });
              delete item.code;
              delete item.message;
            }),
          );
        }
        const created = out.results.filter((r) => r.ok).length;
        out.summary = { total: out.results.length, created, failed: out.results.length - created };
        return out;
      },

      get: (orderId: string) =>
        call<OrderDetailsResponse>('delivery.orders.get', { order_id: orderId }),
      /** The order with your own `order_reference` (e.g. to confirm a create whose answer was lost). */
      getByReference: (orderReference: string) =>
        call<OrderDetailsResponse>('delivery.orders.get', { order_reference: orderReference }),
      track: (orderId: string) =>
        call<TrackingResponse>('delivery.orders.track', { order_id: orderId }),
      estimate: (request: EstimateRequest) =>
        call<EstimateResponse>('delivery.orders.estimate', request),
      cancel: (orderId: string, reason?: string) =>
        call<CancelOrderResponse>(
          'delivery.orders.cancel',
          reason === undefined ? { order_id: orderId } : { order_id: orderId, reason },
        ),
    },

    locations: {
      list: (filters: LocationFilters = {}) =>
        call<LocationsResponse>('delivery.locations.list', filters),
    },

    /** Sandbox test clocks (staging keys only). */
    testClocks: testClocksApi(call),
    /** Which texts your recipients receive, the sender name and the language (per app). */
    messages: {
      settings: {
        get: () => call<MessageSettingsResponse>('delivery.messages.settings.get'),
        /** Fields left out keep their value; `sender_name: null` gives back the platform's sender id. */
        update: (change: MessageSettingsChange) =>
          call<MessageSettingsResponse>('delivery.messages.settings.update', change),
      },
    },

    /** Production keys only. */
    wallet: {
      balance: () => call<WalletBalanceResponse>('delivery.wallet.balance'),
      topup: {
        /** Opens a gateway checkout; send the payer to `checkout_url`, then verify with `client_reference`. */
        initiate: (amountGhs: number) =>
          call<TopupInitiateResponse>('delivery.wallet.topup.initiate', { amount_ghs: amountGhs }),
        /** Credits the wallet once the gateway reports payment; `state` `pending` means poll again. */
        verify: (clientReference: string) =>
          call<TopupVerifyResponse>('delivery.wallet.topup.verify', {
            client_reference: clientReference,
          }),
      },
    },
  };
}
