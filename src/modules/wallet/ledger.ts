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
  kind: 'wallet_topup' | 'order_fee' | 'order_fee_refund' | 'sale_settlement';
  /** One journal per kind and subject: the ledger's own idempotency key. */
  subjectId: string;
  memo: string;
  entries: LedgerEntry[];
}

export const walletAccount = (partnerId: string) => `wallet:${partnerId}`;
export const DELIVERY_REVENUE = 'delivery_revenue';
export const gatewayClearing = (gateway: string) => `gateway_clearing:${gateway}`;

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
