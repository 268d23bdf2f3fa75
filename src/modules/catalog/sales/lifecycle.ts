/**
 * The state changes of a sale, each inside the caller's transaction and after the caller locked
 * the sale row (salesRepository.lock): stock, ledger and webhook event move together with the
 * state, or not at all. Callers check the locked state first, which makes every change a
 * compare-and-set: of racing verifies, callbacks and jobs exactly one applies it.
 */
import type { Queryable } from '../../../platform/db/index.ts';
import { pesewasToGhs } from '../../../platform/money.ts';
import type { DeliveryStatus } from '../../delivery/index.ts';
import { ledger } from '../../ledger/index.ts';
import {
  saleLatePaymentJournal,
  salePaymentHeldJournal,
  salePaymentJournal,
  saleSettlementJournal,
  saleUndeliveredRefundJournal,
  type SaleAmounts,
  type SettlementSource,
} from '../domain/journals.ts';
import { appendEvent, type EventType } from '../../webhooks/index.ts';
import { decompose } from '../domain/money.ts';
import { stockRepository as stock } from '../products/stock.ts';
import { salesRepository as repo, type SalePaymentStatus, type SaleRow } from './repository.ts';

/** Quantities per variant, in id order: every transaction locks variant rows in the same order. */
async function unitsByVariant(tx: Queryable, saleId: string): Promise<Array<[string, number]>> {
  const totals = new Map<string, number>();
  for (const item of await repo.items(tx, saleId))
    totals.set(item.variant_id, (totals.get(item.variant_id) ?? 0) + item.quantity);
  return [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function amountsOf(sale: SaleRow): SaleAmounts {
  const d = decompose({
    subtotal: sale.subtotal_pesewas,
    commission: sale.commission_pesewas,
    deliveryFee: sale.delivery_fee_pesewas,
    markup: sale.markup_pesewas,
  });
  return {
    saleId: sale.id,
    vendorId: sale.vendor_id,
    partnerId: sale.partner_id,
    vendorPayable: d.vendorPayable,
    commission: d.commission,
    deliveryFee: d.deliveryRevenue,
    markup: d.partnerMarkup,
  };
}

async function emit(
  tx: Queryable,
  sale: SaleRow,
  type: Extract<EventType, `safe.order.${string}`>,
  at: Date,
  extra: Record<string, unknown> = {},
): Promise<void> {
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
      ...(sale.failure_reason && type === 'safe.order.failed'
        ? { failure_reason: sale.failure_reason }
        : {}),
      ...(sale.gateway_amount_pesewas !== null && type !== 'safe.order.failed'
        ? { gateway_amount_ghs: pesewasToGhs(sale.gateway_amount_pesewas) }
        : {}),
      ...(sale.refund_due_pesewas !== null
        ? { refund_due_ghs: pesewasToGhs(sale.refund_due_pesewas) }
        : {}),
      ...extra,
      timestamp: at.toISOString(),
    },
  });
}

/**
 * Paid (online) or delivered and collected (cod): the units leave stock. A cod sale's shares are
 * earned at once (it is delivered); a prepaid sale's money is held for its delivery, which earns them
 * (`earnSale`). The partner sees `confirmed` and `settled: true` either way (D8). The ledger's unique
 * (kind, subject) is the last guard against a second journal.
 */
export async function confirmSale(
  tx: Queryable,
  sale: SaleRow,
  paymentStatus: 'paid' | 'collected',
  at: Date,
): Promise<SaleRow> {
  for (const [variantId, quantity] of await unitsByVariant(tx, sale.id))
    await stock.commit(tx, variantId, quantity, at);
  const paid = paymentStatus === 'paid' ? { gatewayAmountPesewas: sale.total_pesewas } : {};
  let row = await repo.transition(tx, sale.id, { state: 'confirmed', paymentStatus, ...paid }, at);
  if (paymentStatus === 'collected') row = await earn(tx, row, 'cash', at);
  else
    await ledger.postJournal(
      tx,
      salePaymentJournal(row.id, row.gateway ?? 'unknown', row.total_pesewas),
      at,
    );
  if (row.payment_method === 'online') await emit(tx, row, 'safe.order.paid', at);
  await emit(tx, row, 'safe.order.confirmed', at);
  return row;
}

/** The shares recognised: the settlement journal and the sale's earned_at, in the caller's transaction. */
async function earn(
  tx: Queryable,
  sale: SaleRow,
  from: SettlementSource,
  at: Date,
): Promise<SaleRow> {
  // Settled at its payment before migration 044, which moved the shares back: its own kind at delivery.
  const kind =
    from === 'undelivered' && (await ledger.posted(tx, 'sale_settlement', sale.id))
      ? 'sale_settlement_at_delivery'
      : 'sale_settlement';
  await ledger.postJournal(tx, saleSettlementJournal(amountsOf(sale), from, kind), at);
  return repo.earn(tx, sale.id, at);
}

/** A paid prepaid sale whose delivery is delivered: its shares move from the money held for it to the payables (no partner event: it stays confirmed). */
const earnSale = (tx: Queryable, sale: SaleRow, at: Date) => earn(tx, sale, 'undelivered', at);

/** A paid prepaid sale whose shares are not yet earned: its money is held until delivery. */
const isPaidUndelivered = (sale: SaleRow) =>
  sale.state === 'confirmed' && sale.payment_method === 'online' && sale.earned_at === null;

export interface Failure {
  paymentStatus: SalePaymentStatus;
  reason: string;
  /** Creation compensation: the partner was answered 4xx or 502, so the reference is given back and no event sent. */
  releaseReference?: boolean;
}

/**
 * Fails a sale: reserved units are released; units of a paid sale (its delivery failed before it was
 * delivered) go back on the shelf and the money held for it is owed back to the buyer. No payee was
 * credited yet, so no payable or receivable moves.
 */
export async function failSale(
  tx: Queryable,
  sale: SaleRow,
  failure: Failure,
  at: Date,
): Promise<SaleRow> {
  const paid = isPaidUndelivered(sale);
  for (const [variantId, quantity] of await unitsByVariant(tx, sale.id)) {
    if (paid) await stock.restock(tx, variantId, quantity, at);
    else await stock.release(tx, variantId, quantity, at);
  }
  const row = await repo.transition(
    tx,
    sale.id,
    {
      state: 'failed',
      paymentStatus: failure.paymentStatus,
      failureReason: failure.reason,
      releaseReference: failure.releaseReference,
      ...(paid ? { refundDuePesewas: sale.total_pesewas } : {}),
    },
    at,
  );
  if (paid)
    await ledger.postJournal(tx, saleUndeliveredRefundJournal(sale.id, sale.total_pesewas), at);
  if (!failure.releaseReference) await emit(tx, row, 'safe.order.failed', at);
  return row;
}

/** Delivery outcomes that leave the goods undelivered, and the failure reason the sale takes. */
const UNDELIVERED: Partial<Record<DeliveryStatus, string>> = {
  cancelled: 'delivery_cancelled',
  failed: 'delivery_failed',
  returned: 'delivery_returned',
};

/**
 * Follows the sale's delivery: delivered settles a cash-on-delivery sale, and earns a paid prepaid
 * one; cancelled, failed or returned (the goods are back at the vendor) fails an open cod sale or a
 * paid prepaid one. Anything else, and any sale already past those states, is left alone, so a
 * repeated outcome is a no-op.
 */
export async function followDelivery(
  tx: Queryable,
  sale: SaleRow,
  status: DeliveryStatus,
  at: Date,
): Promise<SaleRow> {
  if (status === 'delivered' && sale.state === 'awaiting_delivery')
    return confirmSale(tx, sale, 'collected', at);
  if (status === 'delivered' && isPaidUndelivered(sale)) return earnSale(tx, sale, at);
  const reason = UNDELIVERED[status];
  return reason ? failUndelivered(tx, sale, reason, at) : sale;
}

/** A sale whose goods will not be delivered: an open cod sale fails, a paid one fails with its refund owed. */
export async function failUndelivered(
  tx: Queryable,
  sale: SaleRow,
  reason: string,
  at: Date,
): Promise<SaleRow> {
  if (sale.state === 'awaiting_delivery')
    return failSale(tx, sale, { paymentStatus: 'not_collected', reason }, at);
  if (isPaidUndelivered(sale))
    return failSale(tx, sale, { paymentStatus: 'refund_due', reason }, at);
  return sale;
}

/**
 * The gateway collected another amount than the sale's total: neither confirmed nor failed, the
 * sale is held (its stock stays reserved) with the money in suspense, for a person to resolve.
 */
export async function holdSale(
  tx: Queryable,
  sale: SaleRow,
  collectedPesewas: number,
  at: Date,
): Promise<SaleRow> {
  const row = await repo.transition(
    tx,
    sale.id,
    { state: 'on_hold', paymentStatus: 'amount_mismatch', gatewayAmountPesewas: collectedPesewas },
    at,
  );
  await ledger.postJournal(
    tx,
    salePaymentHeldJournal(sale.id, sale.gateway ?? 'unknown', collectedPesewas),
    at,
  );
  await emit(tx, row, 'safe.order.on_hold', at);
  return row;
}

/** The gateway collected payment for a sale that had already failed: the money is owed back to the buyer. */
export async function owePaymentBack(
  tx: Queryable,
  sale: SaleRow,
  collectedPesewas: number,
  at: Date,
): Promise<SaleRow> {
  const row = await repo.transition(
    tx,
    sale.id,
    {
      state: 'failed',
      paymentStatus: 'refund_due',
      gatewayAmountPesewas: collectedPesewas,
      refundDuePesewas: collectedPesewas,
    },
    at,
  );
  await ledger.postJournal(
    tx,
    saleLatePaymentJournal(sale.id, sale.gateway ?? 'unknown', collectedPesewas),
    at,
  );
  await emit(tx, row, 'safe.order.refund_due', at);
  return row;
}

/** What reached the buyer, as safe.order.refunded and orders.get tell it. */
export interface RefundDone {
  method: 'gateway_refund' | 'mobile_money';
  amountPesewas: number;
  refundedAt: Date;
}

/** A refund the provider reversed after it succeeded, as safe.order.refund_reversed tells it. */
export interface RefundReversal {
  method: 'gateway_refund' | 'mobile_money';
  amountPesewas: number;
  reversedAt: Date;
  reason: string;
}

/** The sale's payment status follows its refund, and the partner is told with the refund's words. */
async function refundMoved(
  tx: Queryable,
  sale: SaleRow,
  paymentStatus: 'refunded' | 'refund_due',
  type: 'safe.order.refunded' | 'safe.order.refund_reversed',
  refund: Record<string, unknown>,
  at: Date,
): Promise<SaleRow> {
  const row = await repo.transition(tx, sale.id, { state: sale.state, paymentStatus }, at);
  await emit(tx, row, type, at, { refund });
  return row;
}

/** The money owed back reached the buyer: in the refund's own transaction, with its journals. */
export const markRefunded = (tx: Queryable, sale: SaleRow, r: RefundDone, at: Date) =>
  refundMoved(
    tx,
    sale,
    'refunded',
    'safe.order.refunded',
    {
      method: r.method,
      amount_ghs: pesewasToGhs(r.amountPesewas),
      refunded_at: r.refundedAt.toISOString(),
    },
    at,
  );

/** The provider reversed the refund: the buyer is owed the money again (refund_due), in the reversal's own transaction. */
export const markRefundReversed = (tx: Queryable, sale: SaleRow, r: RefundReversal, at: Date) =>
  refundMoved(
    tx,
    sale,
    'refund_due',
    'safe.order.refund_reversed',
    {
      method: r.method,
      amount_ghs: pesewasToGhs(r.amountPesewas),
      reversed_at: r.reversedAt.toISOString(),
      reason: r.reason,
    },
    at,
  );
