/**
 * Journals of the double-entry ledger, as pure data. Amounts are signed integer pesewas and every
 * journal sums to zero. Modules build their own journals (wallet top-ups and fees, sale
 * settlements) from these pieces and post them through the ledger.
 */
export interface LedgerEntry {
  account: string;
  amountPesewas: number;
  /** Set on a partner wallet's entry, whose cached balance moves with it. */
  walletOf?: string;
}

export interface Journal {
  /** What happened, e.g. wallet_topup or sale_settlement. */
  kind: string;
  /** One journal per kind and subject: the ledger's own idempotency key. */
  subjectId: string;
  memo: string;
  entries: LedgerEntry[];
}

export class UnbalancedJournalError extends Error {
  override readonly name = 'UnbalancedJournalError';
}

export function assertBalanced(journal: Journal): Journal {
  if (journal.entries.length < 2)
    throw new UnbalancedJournalError(`journal ${journal.kind} needs two entries or more`);
  let sum = 0;
  const accounts = new Set<string>();
  for (const e of journal.entries) {
    if (!Number.isSafeInteger(e.amountPesewas) || e.amountPesewas === 0) {
      throw new UnbalancedJournalError(
        `entry on ${e.account} must be a non-zero whole number of pesewas`,
      );
    }
    if (accounts.has(e.account))
      throw new UnbalancedJournalError(`account ${e.account} appears twice in one journal`);
    accounts.add(e.account);
    sum += e.amountPesewas;
  }
  if (sum !== 0)
    throw new UnbalancedJournalError(
      `journal ${journal.kind} for ${journal.subjectId} sums to ${sum}, not 0`,
    );
  return journal;
}

export function positive(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new UnbalancedJournalError(
      `amount must be a positive whole number of pesewas, got ${amount}`,
    );
  return amount;
}
