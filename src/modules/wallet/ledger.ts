/**
 * Journals of the double-entry ledger, as pure data. Amounts are signed integer pesewas and every
 * journal sums to zero; a partner's wallet balance is the sum of its account's entries.
 */
export interface LedgerEntry {
  account: string;
  amountPesewas: number;
  /** Set on a partner wallet's entry, whose cached balance moves with it. */
  walletOf?: string;
}

export interface Journal {
  kind: 'wallet_topup' | 'order_fee' | 'order_fee_refund' | 'sale_settlement' | 'sale_refund' | 'sale_payment_held' | 'sale_late_payment';
  /** One journal per kind and subject: the ledger's own idempotency key. */
  subjectId: string;
  memo: string;
  entries: LedgerEntry[];
}

export const walletAccount = (partnerId: string) => `wallet:${partnerId}`;
export const DELIVERY_REVENUE = 'delivery_revenue';
export const gatewayClearing = (gateway: string) => `gateway_clearing:${gateway}`;
/** Safe-catalog settlement accounts: what the platform owes vendors and partners, and what it earns. */
export const vendorPayable = (vendorId: string) => `vendor_payable:${vendorId}`;
export const partnerMarkupPayable = (partnerId: string) => `partner_markup_payable:${partnerId}`;
export const PLATFORM_COMMISSION = 'platform_commission';
/** Cash a rider collected on delivery and has not yet handed over. */
export const RIDER_CASH_CLEARING = 'rider_cash_clearing';
/** Money owed back to buyers whose prepaid sale failed after it was settled, or who paid a failed sale. */
export const SALE_REFUNDS_PAYABLE = 'sale_refunds_payable';
/** Suspense: buyer money a gateway collected for a sale that cannot be settled as it stands (amount differs). */
export const SALE_PAYMENTS_HELD = 'sale_payments_held';

export class UnbalancedJournalError extends Error {
  override readonly name = 'UnbalancedJournalError';
}

export function assertBalanced(journal: Journal): Journal {
  if (journal.entries.length < 2) throw new UnbalancedJournalError(`journal ${journal.kind} needs two entries or more`);
  let sum = 0;
  const accounts = new Set<string>();
  for (const e of journal.entries) {
    if (!Number.isSafeInteger(e.amountPesewas) || e.amountPesewas === 0) {
      throw new UnbalancedJournalError(`entry on ${e.account} must be a non-zero whole number of pesewas`);
    }
    if (accounts.has(e.account)) throw new UnbalancedJournalError(`account ${e.account} appears twice in one journal`);
    accounts.add(e.account);
    sum += e.amountPesewas;
  }
  if (sum !== 0) throw new UnbalancedJournalError(`journal ${journal.kind} for ${journal.subjectId} sums to ${sum}, not 0`);
  return journal;
}

function positive(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new UnbalancedJournalError(`amount must be a positive whole number of pesewas, got ${amount}`);
  return amount;
}

/** Money confirmed by a gateway lands in the partner's wallet. */
export function topupJournal(partnerId: string, topupId: string, gateway: string, amount: number): Journal {
  positive(amount);
  return assertBalanced({
    kind: 'wallet_topup',
    subjectId: topupId,
    memo: `top-up through ${gateway}`,
    entries: [
      { account: walletAccount(partnerId), amountPesewas: amount, walletOf: partnerId },
      { account: gatewayClearing(gateway), amountPesewas: -amount },
    ],
  });
}

/** A wallet-funded order's fee moves from the wallet to delivery revenue. */
export function orderFeeJournal(partnerId: string, orderId: string, fee: number): Journal {
  positive(fee);
  return assertBalanced({
    kind: 'order_fee',
    subjectId: orderId,
    memo: 'delivery fee of a wallet-funded order',
    entries: [
      { account: walletAccount(partnerId), amountPesewas: -fee, walletOf: partnerId },
      { account: DELIVERY_REVENUE, amountPesewas: fee },
    ],
  });
}

/** The fee of a cancelled wallet-funded order goes back to the wallet. */
export function orderFeeRefundJournal(partnerId: string, orderId: string, fee: number): Journal {
  positive(fee);
  return assertBalanced({
    kind: 'order_fee_refund',
    subjectId: orderId,
    memo: 'refund of a cancelled order fee',
    entries: [
      { account: walletAccount(partnerId), amountPesewas: fee, walletOf: partnerId },
      { account: DELIVERY_REVENUE, amountPesewas: -fee },
    ],
  });
}

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

function saleEntries(s: SaleAmounts, sign: 1 | -1): LedgerEntry[] {
  const parts: Array<[string, number]> = [
    [vendorPayable(s.vendorId), s.vendorPayable],
    [PLATFORM_COMMISSION, s.commission],
    [DELIVERY_REVENUE, s.deliveryFee],
    // A liability to the partner: markup never credits the delivery wallet (D8).
    [partnerMarkupPayable(s.partnerId), s.markup],
  ];
  for (const [, amount] of parts) {
    if (!Number.isSafeInteger(amount) || amount < 0) throw new UnbalancedJournalError(`sale amounts must be whole pesewas >= 0, got ${amount}`);
  }
  // Zero parts (no commission, no markup) are left out: the ledger holds no zero entries.
  return parts.filter(([, amount]) => amount > 0).map(([account, amount]) => ({ account, amountPesewas: sign * amount }));
}

const buyerTotal = (s: SaleAmounts) => positive(s.vendorPayable + s.commission + s.deliveryFee + s.markup);

/** D8: buyer money in = vendor payable + platform commission + delivery revenue + partner markup payable. */
export function saleSettlementJournal(s: SaleAmounts): Journal {
  const clearing = s.source.kind === 'gateway' ? gatewayClearing(s.source.gateway) : RIDER_CASH_CLEARING;
  return assertBalanced({
    kind: 'sale_settlement',
    subjectId: s.saleId,
    memo: s.source.kind === 'gateway' ? `prepaid sale through ${s.source.gateway}` : 'cash on delivery sale',
    entries: [{ account: clearing, amountPesewas: -buyerTotal(s) }, ...saleEntries(s, 1)],
  });
}

/** A settled prepaid sale whose delivery was cancelled: every share goes back, owed to the buyer. */
export function saleRefundJournal(s: SaleAmounts): Journal {
  return assertBalanced({
    kind: 'sale_refund',
    subjectId: s.saleId,
    memo: 'settled sale failed: refund owed to the buyer',
    entries: [{ account: SALE_REFUNDS_PAYABLE, amountPesewas: buyerTotal(s) }, ...saleEntries(s, -1)],
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
