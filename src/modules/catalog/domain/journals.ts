import {
  assertBalanced,
  DELIVERY_REVENUE,
  gatewayClearing,
  partnerMarkupPayable,
  partnerMarkupReceivable,
  PLATFORM_COMMISSION,
  positive,
  RIDER_CASH_CLEARING,
  SALE_PAYMENTS_HELD,
  SALE_REFUNDS_PAYABLE,
  TRANSFER_FEES,
  transferClearing,
  UnbalancedJournalError,
  vendorPayable,
  vendorReceivable,
  type Journal,
  type LedgerEntry,
} from '../../ledger/index.ts';

/** A sale's money, decomposed (pesewas): buyerPays = vendorPayable + commission + deliveryFee + markup. */
export interface SaleAmounts {
  saleId: string;
  vendorId: string;
  partnerId: string;
  /** Where the buyer's money sits: a gateway's clearing account (online) or the riders' cash (cod). */
  source: { kind: 'gateway'; gateway: string } | { kind: 'cash' };
  vendorPayable: number;
  commission: number;
  deliveryFee: number;
  markup: number;
}

/** Which payee shares of a refund are owed back on the payee's receivable (its payable cannot cover them: already paid out). */
export interface OwedBack {
  vendor: boolean;
  markup: boolean;
}

function saleEntries(s: SaleAmounts, sign: 1 | -1, owedBack: OwedBack = { vendor: false, markup: false }): LedgerEntry[] {
  const parts: Array<[string, number]> = [
    [owedBack.vendor ? vendorReceivable(s.vendorId) : vendorPayable(s.vendorId), s.vendorPayable],
    [PLATFORM_COMMISSION, s.commission],
    [DELIVERY_REVENUE, s.deliveryFee],
    // A liability to the partner: markup never credits the delivery wallet (design: Safe-catalog orders).
    [owedBack.markup ? partnerMarkupReceivable(s.partnerId) : partnerMarkupPayable(s.partnerId), s.markup],
  ];
  for (const [, amount] of parts) {
    if (!Number.isSafeInteger(amount) || amount < 0) throw new UnbalancedJournalError(`sale amounts must be whole pesewas >= 0, got ${amount}`);
  }
  // Zero parts (no commission, no markup) are left out: the ledger holds no zero entries.
  return parts.filter(([, amount]) => amount > 0).map(([account, amount]) => ({ account, amountPesewas: sign * amount }));
}

const buyerTotal = (s: SaleAmounts) => positive(s.vendorPayable + s.commission + s.deliveryFee + s.markup);

/** Safe-catalog orders (design): buyer money in = vendor payable + platform commission + delivery revenue + partner markup payable. */
export function saleSettlementJournal(s: SaleAmounts): Journal {
  const clearing = s.source.kind === 'gateway' ? gatewayClearing(s.source.gateway) : RIDER_CASH_CLEARING;
  return assertBalanced({
    kind: 'sale_settlement',
    subjectId: s.saleId,
    memo: s.source.kind === 'gateway' ? `prepaid sale through ${s.source.gateway}` : 'cash on delivery sale',
    entries: [{ account: clearing, amountPesewas: -buyerTotal(s) }, ...saleEntries(s, 1)],
  });
}

/**
 * A settled prepaid sale whose delivery was cancelled: every share goes back, owed to the buyer. A
 * payee's share already paid out is owed back on its receivable (its payable never goes negative),
 * and its next payout deducts it.
 */
export function saleRefundJournal(s: SaleAmounts, owedBack?: OwedBack): Journal {
  return assertBalanced({
    kind: 'sale_refund',
    subjectId: s.saleId,
    memo: 'settled sale failed: refund owed to the buyer',
    entries: [{ account: SALE_REFUNDS_PAYABLE, amountPesewas: buyerTotal(s) }, ...saleEntries(s, -1, owedBack)],
  });
}

/** Buyer money that arrived, but not as the sale expects: from the gateway's clearing to `account`. */
function gatewayReceipt(kind: 'sale_payment_held' | 'sale_late_payment', account: string, memo: string) {
  return (saleId: string, gateway: string, amount: number): Journal =>
    assertBalanced({
      kind,
      subjectId: saleId,
      memo,
      entries: [
        { account: gatewayClearing(gateway), amountPesewas: -positive(amount) },
        { account, amountPesewas: amount },
      ],
    });
}

/** The gateway collected another amount than the sale's total: held in suspense until resolved. */
export const salePaymentHeldJournal = gatewayReceipt('sale_payment_held', SALE_PAYMENTS_HELD, 'sale paid a different amount: held for review');

/** The gateway collected payment for a sale that had already failed: owed back to the buyer. */
export const saleLatePaymentJournal = gatewayReceipt('sale_late_payment', SALE_REFUNDS_PAYABLE, 'payment for a failed sale: refund owed to the buyer');

/** Where a refund's money leaves from: the collecting gateway's clearing, or the transfer provider's. */
export type RefundChannel = { method: 'gateway_refund' | 'mobile_money'; provider: string };
const refundClearing = (c: RefundChannel) => (c.method === 'gateway_refund' ? gatewayClearing(c.provider) : transferClearing(c.provider));

/** The refund reached the buyer: what was owed to them leaves through the gateway or the transfer provider. */
export function saleRefundPaidJournal(saleId: string, channel: RefundChannel, amount: number): Journal {
  return assertBalanced({
    kind: 'sale_refund_paid',
    subjectId: saleId,
    memo: channel.method === 'gateway_refund' ? `refunded through ${channel.provider}` : `refunded to mobile money through ${channel.provider}`,
    entries: [
      { account: SALE_REFUNDS_PAYABLE, amountPesewas: -positive(amount) },
      { account: refundClearing(channel), amountPesewas: amount },
    ],
  });
}

/** What the transfer provider charged for a mobile money refund, an expense of the platform's. */
export function saleRefundFeeJournal(saleId: string, provider: string, fee: number): Journal {
  return assertBalanced({
    kind: 'sale_refund_fee',
    subjectId: saleId,
    memo: `transfer fee charged by ${provider}`,
    entries: [
      { account: TRANSFER_FEES, amountPesewas: -positive(fee) },
      { account: transferClearing(provider), amountPesewas: fee },
    ],
  });
}
