/**
 * The delivery service's public face: what the app wires and what other modules may use.
 * Everything else under modules/delivery is its own business.
 */
export { deliveryModule, createDeliveryModule, type DeliveryModule } from './module.ts';
export { deliverySettings, type DeliverySettings } from './settings.ts';
export {
  allowedMoves,
  buildTimeline,
  DELIVERY_STATUSES,
  describeStatus,
  FAILURE_REASONS,
  FAILURE_TITLES,
  feeFor,
  isFailedAttempt,
  isStop,
  type DeliveryStatus,
  type FailureReason,
  type PricingConfig,
  type TimelineEntry,
} from './domain/index.ts';
export { LocationsService } from './locations/service.ts';
// Gateways' form-encoded callbacks (USSD, voice; the SMS provider's reports and inbound texts, in messages).
export {
  CALLBACK_SECRET,
  CALLBACK_SECRET_RULE,
  registerGatewayCallback,
  type GatewayCallback,
} from './tracking/gateway-callback.ts';
export type { CreateOrderInput } from './orders/schema.ts';
export {
  BulkOrders,
  MAX_BULK_ORDERS,
  type BulkItemResult,
  type OrderCaller,
} from './orders/bulk.ts';
export type {
  MoveActor,
  MoveListener,
  MoveOptions,
  OrderOwner,
  PlacedOrder,
  PlaceStatement,
  OrderClocks,
  OrderWallet,
  PreparedOrder,
  WalletOrder,
} from './orders/service.ts';
export type { CourierProgress, CourierTracker, TrackedCourier } from './orders/courier-tracker.ts';
export { TRACKING_CHANNEL } from './orders/courier-tracker.ts';
export type { ProofMedia, ProofOfDelivery, ProofReader } from './orders/proof.ts';
export type { ReadAlongside } from './orders/alongside.ts';
export type { JobSheet } from './orders/job-sheet.ts';
export type { OrderRow as DeliveryOrder } from './orders/repository.ts';
export type {
  EventRow as DeliveryEvent,
  PartnerOrderDay,
  PartnerOrderFilter,
} from './orders/repository.ts';
export {
  OPERATOR_ORDERS_PAGE,
  PARTNER_ORDERS_PAGE,
  type OperatorOrderFilter,
  type OperatorOrders,
  type PartnerOrders,
} from './orders/partner-orders.ts';
