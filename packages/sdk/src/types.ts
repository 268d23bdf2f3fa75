// Request and response shapes of the partner API, named for SDK users: aliases into the types that
// `npm run sdk:types` generates from the OpenAPI document the server publishes, so they follow the
// server's schemas. Responses may gain fields within v1 (never lose or rename them), so treat them as minimums.
import type { components, operations, webhooks } from './generated/openapi.ts';

type OperationId = keyof operations;
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON request body of an operation. */
type Body<K extends OperationId> = Json<operations[K]['requestBody']>;
/** The JSON body of an operation's success answer. */
type Ok<K extends OperationId, R = operations[K]['responses']> = R extends { 200: infer S }
  ? Json<S>
  : R extends { 201: infer S }
    ? Json<S>
    : never;
type QueryOf<K extends OperationId> = NonNullable<operations[K]['parameters']['query']>;

/** Set by the SDK when a retried create found the first attempt had landed (fetched with orders.get). */
interface Recovered {
  recovered?: true;
}

/** Delivery success envelope. */
export type DeliverySuccess<T> = Omit<Ok<'delivery.orders.get'>, 'data'> & { data: T };
/** Safe-catalog success envelope. */
export type SafeSuccess<T> = Omit<Ok<'safe-catalog.catalog.get'>, 'data'> & { data: T };
export type HealthOk = Ok<'delivery.health'>;
/** The error body of every route; the SDK turns it into a PartnerApiError. */
export type ErrorBody = components['schemas']['Error'];

// ---- Delivery orders ----

export type CreateOrderRequest = Body<'delivery.orders.create'>;
export type LatLng = NonNullable<CreateOrderRequest['delivery']['coordinates']>;
export type CreatedOrder = Ok<'delivery.orders.create'>['data'];
export type CreateOrderResponse = Ok<'delivery.orders.create'> & Recovered;

type BulkAnswer = Ok<'delivery.orders.create_bulk'>;
/**
 * One order of a bulk answer. `existing: true` (set by `createBulk(orders, { findExisting: true })`)
 * marks a DUPLICATE_ORDER_REFERENCE item whose reference already holds one of your orders, created
 * before this call (a re-run): `order_id` is that order; nothing was created.
 */
export type BulkItemResult = BulkAnswer['results'][number] & { existing?: true };
export type BulkCreateResponse = Omit<BulkAnswer, 'results'> & { results: BulkItemResult[] };
export interface BulkOptions {
  /** Look up the order behind each DUPLICATE_ORDER_REFERENCE item and mark it `existing` (safe re-runs). */
  findExisting?: boolean;
}

export type OrderDetailsResponse = Ok<'delivery.orders.get'>;
export type OrderDetails = OrderDetailsResponse['data'];
export type DeliveryStatus = OrderDetails['status'];
export type PaymentStatus = NonNullable<OrderDetails['order_info']['payment_status']>;

export type TrackingResponse = Ok<'delivery.orders.track'>;
export type Tracking = TrackingResponse['data'];
export type TimelineEntry = Tracking['timeline'][number];

export type CancelOrderResponse = Ok<'delivery.orders.cancel'>;
export type CancelledOrder = CancelOrderResponse['data'];

// ---- Estimate and locations ----

export type EstimateRequest = Body<'delivery.orders.estimate'>;
export type Priority = NonNullable<EstimateRequest['priority']>;
export type EstimateResponse = Ok<'delivery.orders.estimate'>;
export type Estimate = EstimateResponse['data'];

export type LocationFilters = Body<'delivery.locations.list'>;
export type LocationsResponse = Ok<'delivery.locations.list'>;
export type Location = LocationsResponse['data']['locations'][number];

// ---- Test clocks (staging keys only) ----

export type TestClockResponse = Ok<'delivery.test_clocks.get'>;
export type TestClock = TestClockResponse['data'];
export type TestClocksResponse = Ok<'delivery.test_clocks.list'>;
export type TestClockDeletedResponse = Ok<'delivery.test_clocks.delete'>;

// ---- Wallet (production keys only) ----

export type WalletBalanceResponse = Ok<'delivery.wallet.balance'>;
export type TopupInitiateResponse = Ok<'delivery.wallet.topup.initiate'>;
export type TopupVerifyResponse = Ok<'delivery.wallet.topup.verify'>;

// ---- Recipient messages ----

export type MessageSettingsResponse = Ok<'delivery.messages.settings.get'>;
export type MessageSettings = MessageSettingsResponse['data'];
export type MessageSettingsChange = Body<'delivery.messages.settings.update'>;

// ---- Safe catalog ----

export type CatalogListQuery = QueryOf<'safe-catalog.catalog.list'>;
export type CatalogListResponse = Ok<'safe-catalog.catalog.list'>;
export type CatalogProductResponse = Ok<'safe-catalog.catalog.get'>;
export type CatalogProduct = CatalogProductResponse['data'];
export type CatalogVariant = CatalogProduct['variants'][number];

export type SafeOrderRequest = Body<'safe-catalog.orders.create'>;
export type SafeOrderResponse = Ok<'safe-catalog.orders.get'>;
export type SafeOrder = SafeOrderResponse['data'];
export type SafeOrderState = SafeOrder['state'];
export type SafeOrderCreated = Omit<Ok<'safe-catalog.orders.create'>['data'], 'state'> & {
  /** Present for cod only: `awaiting_delivery` on a fresh order (a recovered one shows its current state). */
  state?: SafeOrderState;
};
export type SafeOrderCreateResponse = SafeSuccess<SafeOrderCreated> & Recovered;
export type SafeOrderVerifyResponse = Ok<'safe-catalog.orders.verify'>;
type SaleQuery = Required<QueryOf<'safe-catalog.orders.get'>>;
export type SafeOrderLookup = Pick<SaleQuery, 'sale_id'> | Pick<SaleQuery, 'external_reference'>;

// ---- Payouts of your markup (production keys, payouts:read) ----

export type PayoutListQuery = QueryOf<'safe-catalog.payouts.list'>;
export type PayoutListResponse = Ok<'safe-catalog.payouts.list'>;
export type PayoutResponse = Ok<'safe-catalog.payouts.get'>;
export type Payout = PayoutResponse['data'];

// ---- Webhooks ----

export type WebhookEventType = keyof webhooks;
/** The body of a webhook event of type K. */
export type WebhookEventOf<K extends WebhookEventType> = Json<webhooks[K]['post']['requestBody']>;
/** A webhook event of any type: narrow it on `type`. */
export type AnyWebhookEvent = { [K in WebhookEventType]: WebhookEventOf<K> }[WebhookEventType];
export type DeliveryOrderEventData = WebhookEventOf<
  'delivery.order.created' | 'delivery.order.status_changed' | 'delivery.order.cancelled'
>['data'];
