import {
  assertBalanced,
  partnerMarkupPayable,
  partnerMarkupReceivable,
  PAYOUTS_IN_TRANSIT,
  positive,
  TRANSFER_FEES,
  transferClearing,
  vendorPayable,
  vendorReceivable,
  type Journal,
  type LedgerEntry,
} from '../../ledger/index.ts';
import type { PayeeKind } from './destinations.ts';

/** The payable account a payee is paid from. */
export const payableAccount = (kind: PayeeKind, id: string) => (kind === 'vendor' ? vendorPayable(id) : partnerMarkupPayable(id));

/** The receivable a payee owes back on (a return after its payout), deducted from its next payout. */
export const receivableAccount = (kind: PayeeKind, id: string) => (kind === 'vendor' ? vendorReceivable(id) : partnerMarkupReceivable(id));

/** A payee's payable and receivable accounts, from its key (vendor:<id> or partner:<id>). */
export function payeeAccounts(payee: string): { payable: string; receivable: string } {
  const [kind, id] = payee.split(':') as [PayeeKind, string];
  return { payable: payableAccount(kind, id), receivable: receivableAccount(kind, id) };
}

/** What a payout takes off each of a payee's accounts: its payable's lines (positive) and its receivable's (the deductions, negative). */
export interface PayoutSplit {
  payable: string;
  fromPayable: number;
  receivable: string;
  deducted: number;
}

/** A payout's lines summed per account. */
export function splitOf(accounts: { payable: string; receivable: string }, lines: ReadonlyArray<{ account: string; amount_pesewas: number }>): PayoutSplit {
  const sum = (account: string) => lines.filter((l) => l.account === account).reduce((n, l) => n + Number(l.amount_pesewas), 0);
  return { ...accounts, fromPayable: sum(accounts.payable), deducted: -sum(accounts.receivable) };
}

/** Journal kinds this module posts on payable accounts: never themselves remittance lines. */
export const PAYOUT_KINDS = ['payout_created', 'payout_returned'] as const;
/** Every journal kind a payout posts (its subject is the payout's id). */
export const PAYOUT_JOURNAL_KINDS = ['payout_created', 'payout_paid', 'payout_fee', 'payout_returned'] as const;

const move = (kind: string, payoutId: string, memo: string, from: string, to: string, amount: number): Journal =>
  assertBalanced({ kind, subjectId: payoutId, memo, entries: [{ account: from, amountPesewas: -positive(amount) }, { account: to, amountPesewas: amount }] });

/** The entries taking a payout's money off a payee's accounts (sign 1) or putting it back (sign -1). */
function payeeLegs(s: PayoutSplit, sign: 1 | -1): LedgerEntry[] {
  const legs: LedgerEntry[] = [{ account: s.payable, amountPesewas: -sign * positive(s.fromPayable) }];
  if (s.deducted > 0) legs.push({ account: s.receivable, amountPesewas: sign * s.deducted });
  return legs;
}

/**
 * A payout is created: the payee's payable is debited with the lines it pays, its receivable is
 * cleared of the deductions, and the difference (the payout's amount) is in transit.
 */
export const payoutCreatedJournal = (payoutId: string, s: PayoutSplit) =>
  assertBalanced({
    kind: 'payout_created',
    subjectId: payoutId,
    memo: s.deducted > 0 ? `payout from ${s.payable}, less ${s.deducted} owed on ${s.receivable}` : `payout from ${s.payable}`,
    entries: [...payeeLegs(s, 1), { account: PAYOUTS_IN_TRANSIT, amountPesewas: positive(s.fromPayable - s.deducted) }],
  });

/** The provider confirmed the transfer: it left our balance at the provider. */
export const payoutPaidJournal = (payoutId: string, provider: string, amount: number) =>
  move('payout_paid', payoutId, `paid through ${provider}`, PAYOUTS_IN_TRANSIT, transferClearing(provider), amount);

/** What the provider charged for the transfer, an expense of its own. */
export const payoutFeeJournal = (payoutId: string, provider: string, fee: number) =>
  move('payout_fee', payoutId, `transfer fee charged by ${provider}`, TRANSFER_FEES, transferClearing(provider), fee);

/**
 * A payout failed, was rejected or cancelled (money still in transit) or was reversed after it was paid
 * (money back at the provider): owed to the payee again, and its deductions owed by it again.
 */
export const payoutReturnedJournal = (payoutId: string, s: PayoutSplit, from: { paid: boolean; provider: string; cancelled?: boolean }) =>
  assertBalanced({
    kind: 'payout_returned',
    subjectId: payoutId,
    memo: from.paid ? `reversed by ${from.provider}` : from.cancelled ? 'payout cancelled before it was sent: its destination was replaced' : 'payout failed',
    entries: [{ account: from.paid ? transferClearing(from.provider) : PAYOUTS_IN_TRANSIT, amountPesewas: -positive(s.fromPayable - s.deducted) }, ...payeeLegs(s, -1)],
  });
