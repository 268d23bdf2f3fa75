import { pesewasToGhs } from '../../../platform/money.ts';
import type { SaleItemRow, SaleRow, SaleWithDelivery } from './repository.ts';

const money = (s: SaleRow) => ({
  subtotal_ghs: pesewasToGhs(s.subtotal_pesewas),
  delivery_fee_ghs: pesewasToGhs(s.delivery_fee_pesewas),
  markup_ghs: pesewasToGhs(s.markup_pesewas),
  total_ghs: pesewasToGhs(s.total_pesewas),
});

/** orders.create's `data`: `state` only for cash on delivery, as the contract says. */
export function createdView(s: SaleRow) {
  return {
    sale_id: s.id,
    reference: s.reference,
    checkout_url: s.payment_method === 'online' ? s.checkout_url : null,
    ...(s.payment_method === 'cod' ? { state: 'awaiting_delivery' as const } : {}),
    ...money(s),
  };
}

/** orders.verify's `data` (design: Safe-catalog orders). `settled` is true once the buyer's money was booked (paid, or collected), even if the sale failed later. */
export function verifyView(s: SaleWithDelivery) {
  return {
    sale_id: s.id,
    state: s.state,
    settled: s.settled_at !== null,
    payment_status: s.payment_status,
    delivery_status: s.delivery_status,
  };
}

/** orders.get's `data` (design: Safe-catalog orders), plus `checkout_url` while a prepaid sale awaits payment (additive). */
export function saleView(
  s: SaleWithDelivery,
  items: readonly SaleItemRow[],
  publicBaseUrl: string,
) {
  return {
    sale_id: s.id,
    reference: s.reference,
    external_reference: s.external_reference ?? s.released_reference,
    vendor_id: s.vendor_id,
    payment_method: s.payment_method,
    state: s.state,
    payment_status: s.payment_status,
    checkout_url: s.state === 'awaiting_payment' ? s.checkout_url : null,
    gateway_amount_ghs:
      s.gateway_amount_pesewas === null ? null : pesewasToGhs(s.gateway_amount_pesewas),
    refund_due_ghs: s.refund_due_pesewas === null ? null : pesewasToGhs(s.refund_due_pesewas),
    delivery:
      s.delivery_order_id && s.delivery_status
        ? {
            order_id: s.delivery_order_id,
            status: s.delivery_status,
            tracking_url: `${publicBaseUrl}/track/${s.tracking_token}`,
          }
        : null,
    items: items.map((i) => ({
      product_id: i.product_id,
      variant_id: i.variant_id,
      title: i.title,
      label: i.label,
      quantity: i.quantity,
      unit_price_ghs: pesewasToGhs(i.unit_price_pesewas),
      line_total_ghs: pesewasToGhs(i.unit_price_pesewas * i.quantity),
    })),
    ...money(s),
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}

/** A sale as the operator lists it: who it belongs to, where its money stands. */
export function operatorSaleView(s: SaleRow) {
  return {
    sale_id: s.id,
    partner_id: s.partner_id,
    app_id: s.app_id,
    environment: s.environment,
    reference: s.reference,
    external_reference: s.external_reference ?? s.released_reference,
    payment_method: s.payment_method,
    state: s.state,
    payment_status: s.payment_status,
    failure_reason: s.failure_reason,
    gateway: s.gateway,
    total_ghs: pesewasToGhs(s.total_pesewas),
    gateway_amount_ghs:
      s.gateway_amount_pesewas === null ? null : pesewasToGhs(s.gateway_amount_pesewas),
    refund_due_ghs: s.refund_due_pesewas === null ? null : pesewasToGhs(s.refund_due_pesewas),
    delivery_order_id: s.delivery_order_id,
    // When its shares were credited (delivered); null while a paid prepaid sale's money is held.
    earned_at: s.earned_at ? s.earned_at.toISOString() : null,
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}
