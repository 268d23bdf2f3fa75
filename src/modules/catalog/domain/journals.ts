import {
  assertBalanced,
  DELIVERY_REVENUE,
  gatewayClearing,
  partnerMarkupPayable,
  PLATFORM_COMMISSION,
  positive,
  RIDER_CASH_CLEARING,
  SALE_PAYMENTS_HELD,
  SALE_REFUNDS_PAYABLE,
  SALES_UNDELIVERED,
  TRANSFER_FEES,
  transferClearing,
  UnbalancedJournalError,
  vendorPayable,
  type Journal,
  type LedgerEntry,
} from '../../ledger/index.ts';

/** A sale's money, decomposed (pesewas): buyerPays = vendorPayable + commission + deliveryFee + markup. */
export interface SaleAmounts {
  saleId: string;
  vendorId: string;
  partnerId: string;
  vendorPayable: number;
  commission: number;
  deliveryFee: number;
  markup: number;
}

/**
 * Where a delivered sale's money is when its shares are recognised: the riders' cash (cod, collected
 * at the door) or the money held for the undelivered prepaid sale since its payment.
 */
export type SettlementSource = 'cash' | 'undelivered';

/**
 * `sale_settlement`: the shares recognised at delivery. A prepaid sale settled at its payment before
 * migration 044 already has one, which that migration moved back until delivery: its delivery posts
 * `sale_settlement_at_delivery` (the ledger keeps one journal per kind and subject).
 */
export type SettlementKind = 'sale_settlement' | 'sale_settlement_at_delivery';

function shareEntries(s: SaleAmounts): LedgerEntry[] {
  const parts: Array<[string, number]> = [
    [vendorPayable(s.vendorId), s.vendorPayable],
    [PLATFORM_COMMISSION, s.commission],
    [DELIVERY_REVENUE, s.deliveryFee],
    // A liability to the partner: markup never credits the delivery wallet (design: Safe-catalog orders).
    [partnerMarkupPayable(s.partnerId), s.markup],
  ];
  for (const [, amount] of parts) {
    if (!Number.isSafeInteger(amount) || amount < 0)
      throw new UnbalancedJournalError(`sale amounts must be whole pesewas >= 0, got ${amount}`);
  }
  // Zero parts (no commission, no markup) are left out: the ledger holds no zero entries.
  return parts
    .filter(([, amount]) => amount > 0)
    .map(([account, amount]) => ({ account, amountPesewas: amount }));
}

const buyerTotal = (s: SaleAmounts) =>
  positive(s.vendorPayable + s.commission + s.deliveryFee + s.markup);

/** Safe-catalog orders (design), at delivery: the buyer's money = vendor payable + platform commission + delivery revenue + partner markup payable. */
export function saleSettlementJournal(
  s: SaleAmounts,
  from: SettlementSource,
  kind: SettlementKind = 'sale_settlement',
): Journal {
  return assertBalanced({
    kind,
    subjectId: s.saleId,
    memo:
      from === 'cash'
        ? 'cash on delivery sale delivered'
        : 'prepaid sale delivered: its shares are earned',
    entries: [
      {
        account: from === 'cash' ? RIDER_CASH_CLEARING : SALES_UNDELIVERED,
        amountPesewas: -buyerTotal(s),
      },
      ...shareEntries(s),
    ],
  });
}

const move = (
  kind: string,
  subjectId: string,
  memo: string,
  from: string,
  to: string,
  amount: number,
): Journal =>
  assertBalanced({
    kind,
    subjectId,
    memo,
    entries: [
      { account: from, amountPesewas: -positive(amount) },
      { account: to, amountPesewas: amount },
    ],
  });

/** Buyer money a gateway collected for a sale, from its clearing account to where the sale holds it. */
function gatewayReceipt(
  kind: 'sale_payment' | 'sale_payment_held' | 'sale_late_payment',
  account: string,
  memo: string,
) {
  return (saleId: string, gateway: string, amount: number): Journal =>
    move(kind, saleId, memo, gatewayClearing(gateway), account, amount);
}

/** A prepaid sale paid: the buyer's money is held for the undelivered sale until its delivery is delivered (or fails). */
export const salePaymentJournal = gatewayReceipt(
  'sale_payment',
  SALES_UNDELIVERED,
  'prepaid sale paid: held until its delivery',
);

/** The gateway collected another amount than the sale's total: held in suspense until resolved. */
export const salePaymentHeldJournal = gatewayReceipt(
  'sale_payment_held',
  SALE_PAYMENTS_HELD,
  'sale paid a different amount: held for review',
);

/** The gateway collected payment for a sale that had already failed: owed back to the buyer. */
export const saleLatePaymentJournal = gatewayReceipt(
  'sale_late_payment',
  SALE_REFUNDS_PAYABLE,
  'payment for a failed sale: refund owed to the buyer',
);

/** A paid prepaid sale failed before delivery: what it held is owed back to the buyer; no payee was ever credited. */
export const saleUndeliveredRefundJournal = (saleId: string, amount: number): Journal =>
  move(
    'sale_undelivered_refund',
    saleId,
    'prepaid sale failed before delivery: refund owed to the buyer',
    SALES_UNDELIVERED,
    SALE_REFUNDS_PAYABLE,
    amount,
  );

/** Where a refund's money leaves from (and comes back to when reversed): the collecting gateway's clearing, or the transfer provider's. */
export type RefundChannel = { method: 'gateway_refund' | 'mobile_money'; provider: string };
const refundClearing = (c: RefundChannel) =>
  c.method === 'gateway_refund' ? gatewayClearing(c.provider) : transferClearing(c.provider);

/**
 * The refund reached the buyer: what was owed to them leaves through the gateway or the transfer
 * provider. Keyed by the attempt's reference: a reversed refund tried again is paid again.
 */
export function saleRefundPaidJournal(
  reference: string,
  channel: RefundChannel,
  amount: number,
): Journal {
  const memo =
    channel.method === 'gateway_refund'
      ? `refunded through ${channel.provider}`
      : `refunded to mobile money through ${channel.provider}`;
  return move(
    'sale_refund_paid',
    reference,
    memo,
    SALE_REFUNDS_PAYABLE,
    refundClearing(channel),
    amount,
  );
}

/** What the transfer provider charged for a mobile money refund, an expense of the platform's. */
export function saleRefundFeeJournal(reference: string, provider: string, fee: number): Journal {
  return move(
    'sale_refund_fee',
    reference,
    `transfer fee charged by ${provider}`,
    TRANSFER_FEES,
    transferClearing(provider),
    fee,
  );
}

/**
 * The provider reversed a refund after it had succeeded: the money came back to our balance there,
 * and it is owed to the buyer again. The fee stays charged.
 */
export function saleRefundReversedJournal(
  reference: string,
  channel: RefundChannel,
  amount: number,
): Journal {
  return move(
    'sale_refund_reversed',
    reference,
    `refund reversed by ${channel.provider}: owed to the buyer again`,
    refundClearing(channel),
    SALE_REFUNDS_PAYABLE,
    amount,
  );
}
