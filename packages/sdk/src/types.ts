// Request and response shapes of the partner API (partner-api.md, with decisions D5, D8 and D12).
// Responses may gain fields within v1 (never lose or rename them), so treat these as minimums.

export interface LatLng {
  lat: number;
  lng: number;
}

/** Delivery success envelope. */
export interface DeliverySuccess<T> {
  status: 'success';
  message: string;
  data: T;
}
/** Safe-catalog success envelope. */
export interface SafeSuccess<T> {
  status: 'success';
  data: T;
}
export interface HealthOk {
  status: 'ok';
}
/** The error body of every route; the SDK turns it into a PartnerApiError. */
export interface ErrorBody {
  status: 'error';
  code: string;
  message: string;
  request_id: string;
  details?: Array<{ field: string; issue: string }>;
}

// ---- Delivery orders ----

export type DeliveryStatus = 'placed' | 'accepted' | 'pickedUp' | 'in_transit' | 'delivered' | 'cancelled' | 'failed';
export type PaymentStatus = 'pending' | 'collected' | 'wallet_debited' | 'refund_pending' | 'refunded';

export interface CreateOrderRequest {
  /** Your unique reference: the idempotency key (a repeat answers 409 DUPLICATE_ORDER_REFERENCE). */
  order_reference: string;
  customer: { name: string; phone: string; whatsapp?: string };
  delivery: {
    address: string;
    city: string;
    region: string;
    coordinates?: LatLng;
    /** From locations.list; labels the area, never changes the fee. */
    location_id?: string;
    notes?: string;
  };
  item: string;
  pickup: { contact_person: string; contact_phone: string; address?: string; coordinates?: LatLng; location_id?: string };
  payment?: {
    /** Default `recipient` (cash on delivery); `partner` debits the wallet (production, scope delivery:wallet:spend). */
    payer?: 'partner' | 'recipient';
    method?: 'cash' | 'mobile_money' | 'card' | 'bank_transfer';
    /** Fee in GHS when no coordinates are given (recipient pays only). */
    amount?: number;
    is_paid?: boolean;
  };
  /** YYYY-MM-DD */
  delivery_date?: string;
  special_instructions?: string;
  /** Overrides the app's webhook URL for this order's events. */
  webhook_url?: string;
}

export interface CreatedOrder {
  order_details: {
    order_id: string;
    estimated_delivery: string;
    order_reference: string;
    tracking_url: string;
    /** Delivery fee in GHS; absent when no fee could be set. */
    amount?: number;
  };
  status: 'order_created';
}
export type CreateOrderResponse = DeliverySuccess<CreatedOrder> & {
  /** Set by the SDK when a retried create found the first attempt had landed (fetched with orders.get). */
  recovered?: true;
};

export interface BulkItemResult {
  order_reference: string | null;
  ok: boolean;
  /** The status orders.create would have answered. */
  status_code: number;
  order_id: string | null;
  code?: string;
  message?: string;
}
export interface BulkCreateResponse {
  status: 'ok';
  summary: { total: number; created: number; failed: number };
  results: BulkItemResult[];
}

export interface OrderDetails {
  order_reference: string;
  /** The platform order id (the `order_id` of get, track and cancel). */
  internal_order_id: string;
  status: DeliveryStatus;
  status_details: { description: string; timestamp?: string };
  order_info: {
    recipient_name?: string;
    recipient_phone?: string;
    recipient_address?: string;
    delivery_date?: string;
    pickup_date?: string;
    payment_status?: PaymentStatus;
    amount?: number;
  };
  tracking_url: string;
}
export type OrderDetailsResponse = DeliverySuccess<OrderDetails>;

export interface TimelineEntry {
  status: DeliveryStatus;
  title: string;
  timestamp?: string;
  completed: boolean;
}
export interface Tracking {
  order_id: string;
  order_reference: string;
  recipient_name?: string;
  /** The last four digits only. */
  recipient_phone_last4: string;
  current_status: DeliveryStatus;
  estimated_delivery_time?: string;
  timeline: TimelineEntry[];
}
export type TrackingResponse = DeliverySuccess<Tracking>;

export interface CancelledOrder {
  order_reference: string;
  internal_order_id: string;
  status: 'cancelled';
  cancelled_at: string;
  cancellation_reason: string;
  refund_status: 'pending' | 'not_applicable';
}
export type CancelOrderResponse = DeliverySuccess<CancelledOrder>;

// ---- Estimate and locations ----

export type Priority = 'standard' | 'economy' | 'cargo';

export interface EstimateRequest {
  delivery_location: { coordinates: LatLng; address?: string };
  /** Defaults to central Accra. */
  pickup_location?: { address?: string; coordinates?: LatLng };
  priority?: Priority;
  /** YYYY-MM-DD; shapes the windows, never the price. */
  order_date?: string;
}
export interface Estimate {
  estimated_price: number;
  estimated_delivery_time: string;
  pickup_time: string;
  delivery_time: string;
  pickup_region: string;
  dropoff_region: string;
  pickup_description: string;
  dropoff_description: string;
  delivery_window: { earliest: string; latest: string };
  priority_level: Priority;
  service_type: string;
  available_options: Array<{ priority: Priority; price: number; description: string }>;
  location_coverage: { delivery_available: boolean; service_area: string };
  additional_info: {
    weekend_delivery: boolean;
    holiday_delivery: boolean;
    tracking_available: boolean;
    pickup_description: string;
    delivery_description: string;
  };
}
export type EstimateResponse = DeliverySuccess<Estimate>;

export interface LocationFilters {
  region?: string;
  zone?: string;
  include_coordinates?: boolean;
}
export interface Location {
  id: string;
  name: string;
  region?: string;
  zone?: string;
  coordinates?: LatLng;
}
export type LocationsResponse = DeliverySuccess<{
  locations: Location[];
  total: number;
  filters: { region: string | null; zone: string | null };
}>;

// ---- Wallet (production keys only) ----

export type WalletBalanceResponse = DeliverySuccess<{ balance_ghs: number; currency: 'GHS' }>;
export type TopupInitiateResponse = DeliverySuccess<{ checkout_url: string; client_reference: string; amount_ghs: number }>;
export type TopupVerifyResponse = DeliverySuccess<{
  /** True for `credited` and `already_credited`. */
  credited: boolean;
  state: 'credited' | 'already_credited' | 'pending';
  amount_ghs?: number;
  balance_ghs?: number;
  /** The gateway's raw status, when pending. */
  verification_status?: string;
}>;

// ---- Safe catalog ----

export interface CatalogVariant {
  variant_id: string;
  label: string;
  price_ghs: number;
  in_stock: boolean;
}
export interface CatalogProduct {
  product_id: string;
  vendor_id: string;
  vendor_name: string;
  title: string;
  description: string;
  images: string[];
  category: string | null;
  currency: string;
  variants: CatalogVariant[];
}
export interface CatalogListQuery {
  vendor_id?: string;
  /** Default 50, capped at 200. */
  limit?: number;
  /** `next_cursor` of the previous page. */
  cursor?: string;
}
export type CatalogListResponse = SafeSuccess<{ products: CatalogProduct[]; count: number; next_cursor?: string | null }>;
export type CatalogProductResponse = SafeSuccess<CatalogProduct>;

export interface SafeOrderRequest {
  payment_method: 'online' | 'cod';
  vendor_id: string;
  items: Array<{ product_id: string; variant_id: string; quantity: number }>;
  buyer: { name: string; phone: string };
  delivery: { address: string; lat?: number; lng?: number; area_id?: string };
  /** Default 0; must be 0 or absent with `cod`. */
  reseller_markup_ghs?: number;
  /** 3 to 64 characters: your order id and the idempotency key. */
  external_reference: string;
}
export type SafeOrderState = 'awaiting_payment' | 'awaiting_delivery' | 'confirmed' | 'failed' | 'on_hold';
export interface SafeOrderCreated {
  sale_id: string;
  reference: string;
  /** Where the buyer pays (online); null for cod. */
  checkout_url: string | null;
  /** Present for cod only: `awaiting_delivery` on a fresh order (a recovered one shows its current state). */
  state?: SafeOrderState;
  subtotal_ghs: number;
  delivery_fee_ghs: number;
  markup_ghs: number;
  total_ghs: number;
}
export type SafeOrderCreateResponse = SafeSuccess<SafeOrderCreated> & { recovered?: true };
export type SafeOrderVerifyResponse = SafeSuccess<{
  sale_id: string;
  state: SafeOrderState;
  settled: boolean;
  payment_status: string;
  delivery_status: string | null;
}>;
export interface SafeOrder {
  sale_id: string;
  reference: string;
  external_reference: string | null;
  vendor_id: string;
  payment_method: 'online' | 'cod';
  state: SafeOrderState;
  payment_status: string;
  checkout_url?: string | null;
  /** What the gateway reported as paid; differs from total_ghs when the order is on_hold. */
  gateway_amount_ghs?: number | null;
  /** What the buyer is owed back when payment_status is refund_due. */
  refund_due_ghs?: number | null;
  delivery: { order_id: string; status: string; tracking_url: string } | null;
  items: Array<{
    product_id: string;
    variant_id: string;
    title: string;
    label: string;
    quantity: number;
    unit_price_ghs: number;
    line_total_ghs: number;
  }>;
  subtotal_ghs: number;
  delivery_fee_ghs: number;
  markup_ghs: number;
  total_ghs: number;
  created_at: string;
  updated_at: string;
}
export type SafeOrderResponse = SafeSuccess<SafeOrder>;
export type SafeOrderLookup = { sale_id: string } | { external_reference: string };

// ---- Webhooks (D4) ----

export type WebhookEventType =
  | 'delivery.order.created'
  | 'delivery.order.status_changed'
  | 'delivery.order.cancelled'
  | 'wallet.topup.credited'
  | 'wallet.refund.completed'
  | 'safe.order.paid'
  | 'safe.order.confirmed'
  | 'safe.order.failed'
  | 'safe.order.on_hold'
  | 'safe.order.refund_due';
export interface DeliveryOrderEventData {
  order_id: string;
  order_reference: string;
  status: DeliveryStatus;
  previous_status: DeliveryStatus | null;
  timestamp: string;
  sequence: number;
}
