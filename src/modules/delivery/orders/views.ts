import { pesewasToGhs } from '../../../platform/money.ts';
import { buildTimeline, describeStatus } from '../domain/index.ts';
import { maskPhoneLast4 } from '../../../shared/ghana/index.ts';
import type { ProofOfDelivery } from './proof.ts';
import type { EventRow, OrderRow, TrackedOrder } from './repository.ts';

export const trackingUrl = (publicBaseUrl: string, order: OrderRow) =>
  `${publicBaseUrl}/track/${order.tracking_token}`;

function lastEventAt(order: OrderRow, events: readonly EventRow[]): string {
  return (events.at(-1)?.at ?? order.updated_at).toISOString();
}

/** Additive once a delivery attempt failed: the attempts made and the latest failure (never on a new order). */
function failureView(
  order: Pick<OrderRow, 'failure_reason' | 'failure_note' | 'delivery_attempts'>,
) {
  if (!order.failure_reason) return {};
  return {
    delivery_attempts: order.delivery_attempts,
    failure: { reason: order.failure_reason, note: order.failure_note },
  };
}

/** Additive: the GhanaPostGPS addresses, the quote, the delivery window and the test clock an order was given, only when it was. */
function extrasView(order: OrderRow) {
  return {
    ...(order.pickup_digital_address
      ? { pickup_digital_address: order.pickup_digital_address }
      : {}),
    ...(order.delivery_digital_address
      ? { delivery_digital_address: order.delivery_digital_address }
      : {}),
    ...(order.quote_id ? { quote_id: order.quote_id } : {}),
    ...(order.pickup_ready_at
      ? { pickup_ready_at: new Date(order.pickup_ready_at).toISOString() }
      : {}),
    ...(order.dropoff_deadline
      ? { dropoff_deadline: new Date(order.dropoff_deadline).toISOString() }
      : {}),
    ...(order.test_clock_id ? { test_clock_id: order.test_clock_id } : {}),
  };
}

export function createdView(order: OrderRow, publicBaseUrl: string) {
  return {
    order_details: {
      order_id: order.id,
      estimated_delivery: order.estimated_delivery.toISOString(),
      // Additive within v1: saves a round trip for partners who show the link at once.
      order_reference: order.order_reference,
      tracking_url: trackingUrl(publicBaseUrl, order),
      ...(order.fee_pesewas !== null ? { amount: pesewasToGhs(order.fee_pesewas) } : {}),
      ...extrasView(order),
    },
    status: 'order_created' as const,
  };
}

export function detailsView(
  order: OrderRow,
  events: readonly EventRow[],
  publicBaseUrl: string,
  proof?: ProofOfDelivery,
) {
  return {
    order_reference: order.order_reference,
    internal_order_id: order.id,
    status: order.status,
    status_details: {
      description: describeStatus(order.status),
      timestamp: lastEventAt(order, events),
    },
    order_info: {
      recipient_name: order.customer_name,
      recipient_phone: order.customer_phone,
      recipient_address: `${order.delivery_address}, ${order.delivery_city}`,
      delivery_date: order.estimated_delivery.toISOString().slice(0, 10),
      pickup_date: order.requested_date ?? order.pickup_date,
      payment_status: order.payment_status,
      ...(order.fee_pesewas !== null ? { amount: pesewasToGhs(order.fee_pesewas) } : {}),
      ...(order.return_fee_pesewas !== null
        ? { return_fee: pesewasToGhs(order.return_fee_pesewas) }
        : {}),
      ...extrasView(order),
    },
    tracking_url: trackingUrl(publicBaseUrl, order),
    ...failureView(order),
    // Additive within v1: present once the courier has given a proof.
    ...(proof ? { proof_of_delivery: proof } : {}),
  };
}

export function trackView(order: TrackedOrder, events: readonly EventRow[]) {
  return {
    order_id: order.id,
    order_reference: order.order_reference,
    recipient_name: order.customer_name,
    recipient_phone_last4: maskPhoneLast4(order.customer_phone),
    current_status: order.status,
    estimated_delivery_time: order.estimated_delivery.toISOString(),
    timeline: buildTimeline(events.map((e) => ({ status: e.status, at: e.at }))),
    ...failureView(order),
  };
}

export function cancelledView(order: OrderRow) {
  return {
    order_reference: order.order_reference,
    internal_order_id: order.id,
    status: 'cancelled' as const,
    cancelled_at: order.cancelled_at!.toISOString(),
    cancellation_reason: order.cancellation_reason ?? '',
    refund_status: order.payer === 'partner' ? ('pending' as const) : ('not_applicable' as const),
  };
}
