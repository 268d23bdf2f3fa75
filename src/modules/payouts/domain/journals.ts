import {
  assertBalanced,
  courierPayable,
  courierReceivable,
  partnerMarkupPayable,
  partnerMarkupReceivable,
  PAYOUT_FEES_WITHHELD,
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
export const payableAccount = (kind: PayeeKind, id: string) =>
  ({ vendor: vendorPayable, partner: partnerMarkupPayable, courier: courierPayable })[kind](id);

/** The receivable a payee owes back on (a return after its payout), deducted from its next payout. */
export const receivableAccount = (kind: PayeeKind, id: string) =>
  ({ vendor: vendorReceivable, partner: partnerMarkupReceivable, courier: courierReceivable })[
    kind
  ](id);

/** A payee's payable and receivable accounts, from its key (vendor:<id>, partner:<id> or courier:<id>). */
export function payeeAccounts(payee: string): { payable: string; receivable: string } {
  const [kind, id] = payee.split(':') as [PayeeKind, string];
  return { payable: payableAccount(kind, id), receivable: receivableAccount(kind, id) };
}

/**
 * What a payout takes off each of a payee's accounts: its payable's lines (positive) and its
 * receivable's (the deductions, negative); and the transfer fee withheld when the payee bears it.
 */
export interface PayoutSplit {
  payable: string;
  fromPayable: number;
  receivable: string;
  deducted: number;
  /** The payee-borne transfer fee (0 when the platform bears it). */
  fee: number;
}

/** A payout's lines summed per account, with the fee it withholds. */
export function splitOf(
  accounts: { payable: string; receivable: string },
  lines: ReadonlyArray<{ account: string; amount_pesewas: number }>,
  fee = 0,
): PayoutSplit {
  const sum = (account: string) =>
    lines.filter((l) => l.account === account).reduce((n, l) => n + Number(l.amount_pesewas), 0);
  return {
    ...accounts,
    fromPayable: sum(accounts.payable),
    deducted: -sum(accounts.receivable),
    fee,
  };
}

/** What a payout sends: its lines, less its deductions, less the fee its payee bears. */
export const sentAmount = (s: PayoutSplit): number => s.fromPayable - s.deducted - s.fee;

/** Journal kinds this module posts on payable accounts: never themselves remittance lines. */
export const PAYOUT_KINDS = ['payout_created', 'payout_returned'] as const;
/** Every journal kind a payout posts (its subject is the payout's id). */
export const PAYOUT_JOURNAL_KINDS = [
  'payout_created',
  'payout_paid',
  'payout_fee',
  'payout_fee_recovered',
  'payout_returned',
] as const;

const move = (
  kind: string,
  payoutId: string,
  memo: string,
  from: string,
  to: string,
  amount: number,
): Journal =>
  assertBalanced({
    kind,
    subjectId: payoutId,
    memo,
    entries: [
      { account: from, amountPesewas: -positive(amount) },
      { account: to, amountPesewas: amount },
    ],
  });

/** The entries taking a payout's money off a payee's accounts (sign 1) or putting it back (sign -1). */
function payeeLegs(s: PayoutSplit, sign: 1 | -1): LedgerEntry[] {
  const legs: LedgerEntry[] = [
    { account: s.payable, amountPesewas: -sign * positive(s.fromPayable) },
  ];
  if (s.deducted > 0) legs.push({ account: s.receivable, amountPesewas: sign * s.deducted });
  return legs;
}

/**
 * A payout is created: the payee's payable is debited with the lines it pays, its receivable is
 * cleared of the deductions, the fee its payee bears is withheld, and the rest (the payout's amount) is in transit.
 */
export function payoutCreatedJournal(payoutId: string, s: PayoutSplit) {
  const less = [
    s.deducted > 0 ? `less ${s.deducted} owed on ${s.receivable}` : '',
    s.fee > 0 ? `less the transfer fee of ${s.fee}, borne by the payee` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const entries: LedgerEntry[] = [
    ...payeeLegs(s, 1),
    { account: PAYOUTS_IN_TRANSIT, amountPesewas: positive(sentAmount(s)) },
  ];
  if (s.fee > 0) entries.push({ account: PAYOUT_FEES_WITHHELD, amountPesewas: s.fee });
  return assertBalanced({
    kind: 'payout_created',
    subjectId: payoutId,
    memo: less ? `payout from ${s.payable}, ${less}` : `payout from ${s.payable}`,
    entries,
  });
}

/** The provider confirmed the transfer: it left our balance at the provider. */
export const payoutPaidJournal = (payoutId: string, provider: string, amount: number) =>
  move(
    'payout_paid',
    payoutId,
    `paid through ${provider}`,
    PAYOUTS_IN_TRANSIT,
    transferClearing(provider),
    amount,
  );

/** What the provider charged for the transfer, an expense of its own. */
export const payoutFeeJournal = (payoutId: string, provider: string, fee: number) =>
  move(
    'payout_fee',
    payoutId,
    `transfer fee charged by ${provider}`,
    TRANSFER_FEES,
    transferClearing(provider),
    fee,
  );

/** A payout whose payee bears the fee was paid: the fee withheld from it covers the provider's (the transfer fees' credit). */
export const payoutFeeRecoveredJournal = (payoutId: string, fee: number) =>
  move(
    'payout_fee_recovered',
    payoutId,
    'transfer fee borne by the payee, withheld from its payout',
    PAYOUT_FEES_WITHHELD,
    TRANSFER_FEES,
    fee,
  );

/**
 * A payout failed, was rejected or cancelled (money still in transit) or was reversed after it was paid
 * (money back at the provider): owed to the payee again, its deductions owed by it again, and the
 * fee it bore given back (withheld, or recovered when it was paid): a payee pays the fee of a paid
 * payout only, so a reversed one made again charges it once.
 */
export function payoutReturnedJournal(
  payoutId: string,
  s: PayoutSplit,
  from: { paid: boolean; provider: string; cancelled?: boolean },
) {
  const entries: LedgerEntry[] = [
    {
      account: from.paid ? transferClearing(from.provider) : PAYOUTS_IN_TRANSIT,
      amountPesewas: -positive(sentAmount(s)),
    },
  ];
  if (s.fee > 0)
    entries.push({
      account: from.paid ? TRANSFER_FEES : PAYOUT_FEES_WITHHELD,
      amountPesewas: -s.fee,
    });
  return assertBalanced({
    kind: 'payout_returned',
    subjectId: payoutId,
    memo: from.paid
      ? `reversed by ${from.provider}`
      : from.cancelled
        ? 'payout cancelled before it was sent: its destination was replaced'
        : 'payout failed',
    entries: [...entries, ...payeeLegs(s, -1)],
  });
}
