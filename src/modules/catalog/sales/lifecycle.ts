/**
 * The state changes of a sale, each inside the caller's transaction and after the caller locked
 * the sale row (salesRepository.lock): stock, ledger and webhook event move together with the
 * state, or not at all. Callers check the locked state first, which makes every change a
 * compare-and-set: of racing verifies, callbacks and jobs exactly one applies it.
 */
import type { Queryable } from '../../../platform/db/index.ts';
import { pesewasToGhs } from '../../../platform/money.ts';
import type { DeliveryStatus } from '../../delivery/index.ts';
import { ledger, partnerMarkupPayable, vendorPayable } from '../../ledger/index.ts';
import { saleLatePaymentJournal, salePaymentHeldJournal, saleRefundJournal, saleSettlementJournal, type SaleAmounts } from '../domain/journals.ts';
import { appendEvent, type EventType } from '../../webhooks/index.ts';
import { decompose } from '../domain/money.ts';
import { stockRepository as stock } from '../products/stock.ts';
import { salesRepository as repo, type SalePaymentStatus, type SaleRow } from './repository.ts';

/** Quantities per variant, in id order: every transaction locks variant rows in the same order. */
async function unitsByVariant(tx: Queryable, saleId: string): Promise<Array<[string, number]>> {
  const totals = new Map<string, number>();
  for (const item of await repo.items(tx, saleId)) totals.set(item.variant_id, (totals.get(item.variant_id) ?? 0) + item.quantity);
  return [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function amountsOf(sale: SaleRow): SaleAmounts {
  const d = decompose({ subtotal: sale.subtotal_pesewas, commission: sale.commission_pesewas, deliveryFee: sale.delivery_fee_pesewas, markup: sale.markup_pesewas });
  return {
    saleId: sale.id,
    vendorId: sale.vendor_id,
    partnerId: sale.partner_id,
    source: sale.payment_method === 'online' ? { kind: 'gateway', gateway: sale.gateway ?? 'unknown' } : { kind: 'cash' },
    vendorPayable: d.vendorPayable,
    commission: d.commission,
    deliveryFee: d.deliveryRevenue,
    markup: d.partnerMarkup,
  };
}

async function emit(tx: Queryable, sale: SaleRow, type: Extract<EventType, `safe.order.${string}`>, at: Date, extra: Record<string, unknown> = {}): Promise<void> {
  await appendEvent(tx, {
    appId: sale.app_id,
    environment: sale.environment,
    type,
    subjectId: sale.id,
    sequence: sale.version,
    destinationUrl: null,
    at,
    data: {
      sale_id: sale.id,
      reference: sale.reference,
      external_reference: sale.external_reference,
      payment_method: sale.payment_method,
      state: sale.state,
      payment_status: sale.payment_status,
      total_ghs: pesewasToGhs(sale.total_pesewas),
      ...(sale.failure_reason && type === 'safe.order.failed' ? { failure_reason: sale.failure_reason } : {}),
      ...(sale.gateway_amount_pesewas !== null && type !== 'safe.order.failed' ? { gateway_amount_ghs: pesewasToGhs(sale.gateway_amount_pesewas) } : {}),
      ...(sale.refund_due_pesewas !== null ? { refund_due_ghs: pesewasToGhs(sale.refund_due_pesewas) } : {}),
      ...extra,
      timestamp: at.toISOString(),
    },
  });
}

/**
 * Paid (online) or delivered and collected (cod): the units leave stock and the settlement
 * decomposition is posted. The ledger's unique (kind, subject) is the last guard against a second one.
 */
export async function confirmSale(tx: Queryable, sale: SaleRow, paymentStatus: 'paid' | 'collected', at: Date): Promise<SaleRow> {
  for (const [variantId, quantity] of await unitsByVariant(tx, sale.id)) await stock.commit(tx, variantId, quantity, at);
  const paid = paymentStatus === 'paid' ? { gatewayAmountPesewas: sale.total_pesewas } : {};
  const row = await repo.transition(tx, sale.id, { state: 'confirmed', paymentStatus, ...paid }, at);
  await ledger.postJournal(tx, saleSettlementJournal(amountsOf(row)), at);
  if (row.payment_method === 'online') await emit(tx, row, 'safe.order.paid', at);
  await emit(tx, row, 'safe.order.confirmed', at);
  return row;
}

export interface Failure {
  paymentStatus: SalePaymentStatus;
  reason: string;
  /** Creation compensation: the partner was answered 4xx or 502, so the reference is given back and no event sent. */
  releaseReference?: boolean;
}

/**
 * Fails a sale: reserved units are released; units of a confirmed sale (its delivery was
 * cancelled after payment) go back on the shelf and its settlement is reversed into a refund
 * owed to the buyer.
 */
export async function failSale(tx: Queryable, sale: SaleRow, failure: Failure, at: Date): Promise<SaleRow> {
  const wasConfirmed = sale.state === 'confirmed';
  for (const [variantId, quantity] of await unitsByVariant(tx, sale.id)) {
    if (wasConfirmed) await stock.restock(tx, variantId, quantity, at);
    else await stock.release(tx, variantId, quantity, at);
  }
  const refunded = wasConfirmed && sale.settled_at !== null;
  const row = await repo.transition(
    tx,
    sale.id,
    {
      state: 'failed',
      paymentStatus: failure.paymentStatus,
      failureReason: failure.reason,
      releaseReference: failure.releaseReference,
      ...(refunded ? { refundDuePesewas: sale.total_pesewas } : {}),
    },
    at,
  );
  if (refunded) {
    const amounts = amountsOf(row);
    // A share the payee's payable no longer covers (paid out) is owed back on its receivable instead.
    const owesBack = async (account: string, share: number) => share > 0 && (await ledger.lockedBalance(tx, account)) < share;
    const owedBack = { vendor: await owesBack(vendorPayable(amounts.vendorId), amounts.vendorPayable), markup: await owesBack(partnerMarkupPayable(amounts.partnerId), amounts.markup) };
    await ledger.postJournal(tx, saleRefundJournal(amounts, owedBack), at);
  }
  if (!failure.releaseReference) await emit(tx, row, 'safe.order.failed', at);
  return row;
}

/** Delivery outcomes that leave the goods undelivered, and the failure reason the sale takes. */
const UNDELIVERED: Partial<Record<DeliveryStatus, string>> = { cancelled: 'delivery_cancelled', failed: 'delivery_failed', returned: 'delivery_returned' };

/**
 * Follows the sale's delivery: delivered settles a cash-on-delivery sale; cancelled, failed or
 * returned (the goods are back at the vendor) fails an open cod sale, or a prepaid one (which was settled at payment). Anything else, and any
 * sale already past those states, is left alone, so a repeated outcome is a no-op.
 */
export async function followDelivery(tx: Queryable, sale: SaleRow, status: DeliveryStatus, at: Date): Promise<SaleRow> {
  if (status === 'delivered' && sale.state === 'awaiting_delivery') return confirmSale(tx, sale, 'collected', at);
  const reason = UNDELIVERED[status];
  return reason ? failUndelivered(tx, sale, reason, at) : sale;
}

/** A sale whose goods will not be delivered: an open cod sale fails, a paid one fails with its refund owed. */
export async function failUndelivered(tx: Queryable, sale: SaleRow, reason: string, at: Date): Promise<SaleRow> {
  if (sale.state === 'awaiting_delivery') return failSale(tx, sale, { paymentStatus: 'not_collected', reason }, at);
  if (sale.state === 'confirmed' && sale.payment_method === 'online') return failSale(tx, sale, { paymentStatus: 'refund_due', reason }, at);
  return sale;
}

/**
 * The gateway collected another amount than the sale's total: neither confirmed nor failed, the
 * sale is held (its stock stays reserved) with the money in suspense, for a person to resolve.
 */
export async function holdSale(tx: Queryable, sale: SaleRow, collectedPesewas: number, at: Date): Promise<SaleRow> {
  const row = await repo.transition(tx, sale.id, { state: 'on_hold', paymentStatus: 'amount_mismatch', gatewayAmountPesewas: collectedPesewas }, at);
  await ledger.postJournal(tx, salePaymentHeldJournal(sale.id, sale.gateway ?? 'unknown', collectedPesewas), at);
  await emit(tx, row, 'safe.order.on_hold', at);
  return row;
}

/** The gateway collected payment for a sale that had already failed: the money is owed back to the buyer. */
export async function owePaymentBack(tx: Queryable, sale: SaleRow, collectedPesewas: number, at: Date): Promise<SaleRow> {
  const row = await repo.transition(
    tx,
    sale.id,
    { state: 'failed', paymentStatus: 'refund_due', gatewayAmountPesewas: collectedPesewas, refundDuePesewas: collectedPesewas },
    at,
  );
  await ledger.postJournal(tx, saleLatePaymentJournal(sale.id, sale.gateway ?? 'unknown', collectedPesewas), at);
  await emit(tx, row, 'safe.order.refund_due', at);
  return row;
}

/** What reached the buyer, as safe.order.refunded and orders.get tell it. */
export interface RefundDone {
  method: 'gateway_refund' | 'mobile_money';
  amountPesewas: number;
  refundedAt: Date;
}

/** The money owed back reached the buyer: in the refund's own transaction, with its journals. */
export async function markRefunded(tx: Queryable, sale: SaleRow, refund: RefundDone, at: Date): Promise<SaleRow> {
  const row = await repo.transition(tx, sale.id, { state: sale.state, paymentStatus: 'refunded' }, at);
  const data = { method: refund.method, amount_ghs: pesewasToGhs(refund.amountPesewas), refunded_at: refund.refundedAt.toISOString() };
  await emit(tx, row, 'safe.order.refunded', at, { refund: data });
  return row;
}
