/**
 * A transfer provider's statement as CSV, normalised (docs/operators.md, "Money out"): one line per
 * transfer, modelled on Paystack's transfers export and its transfer object (reference, transfer_code,
 * amount, fee_charged, currency, status, updatedAt). Pure: a file reads whole or is refused with its problems.
 */
import { fromPaystackReference } from '../../../integrations/transfers/paystack.ts';
import {
  accraDay,
  amountAndFee,
  lineMoment,
  readTable,
  REFERENCE,
  ReportProblem,
} from './table.ts';

/** Where a transfer stands: money left (paid), came back after leaving (reversed), never left (failed), or not yet known. */
export type TransferLineState = 'pending' | 'paid' | 'failed' | 'reversed';

/** Canonical field → header (matched case-insensitively). */
export const STATEMENT_COLUMNS = {
  reference: 'reference',
  transferCode: 'transfer_code',
  amount: 'amount',
  fee: 'fee_charged',
  currency: 'currency',
  status: 'status',
  date: 'updated_at',
} as const;

/** Paystack's transfer statuses and what each means for the money. */
export const STATEMENT_STATUSES: Readonly<Record<string, TransferLineState>> = {
  success: 'paid',
  reversed: 'reversed',
  failed: 'failed',
  abandoned: 'failed',
  pending: 'pending',
  otp: 'pending',
  queued: 'pending',
  received: 'pending',
};

export interface StatementLine {
  line: number;
  /** Our reference as we sent it (a payout id, a buyer refund's reference). */
  reference: string;
  transferCode: string | null;
  amountPesewas: number;
  feePesewas: number;
  /** The provider's word, lower case. */
  status: string;
  state: TransferLineState;
  /** When the transfer reached that status, and that day in Accra. */
  occurredAt: Date;
  day: string;
}

/**
 * Paystack shows our references lower case (`pout_01j…`); ours end in an upper-case ULID, raised
 * again here so that either spelling reads as ours.
 */
const ours = (reference: string) => fromPaystackReference(reference.toLowerCase());

/** Reads a transfer statement. Throws ReportProblem when any line is wrong: nothing of a bad file is imported. */
export function readStatement(text: string): StatementLine[] {
  const rows = readTable(text, STATEMENT_COLUMNS, { file: 'statement', row: 'transfer' });
  const problems: string[] = [];
  const lines: StatementLine[] = [];
  const seen = new Set<string>();
  for (const { line, cell, misshapen } of rows) {
    const wrong = (what: string) => problems.push(`line ${line}: ${what}`);
    if (misshapen) {
      wrong(misshapen);
      continue;
    }
    const before = problems.length;
    const reference = cell('reference');
    const transferCode = cell('transferCode') || null;
    const status = cell('status').toLowerCase();
    const state = Object.hasOwn(STATEMENT_STATUSES, status)
      ? STATEMENT_STATUSES[status]
      : undefined;
    if (!REFERENCE.test(reference))
      wrong('the reference must be letters, digits, _ . : - (at most 64)');
    if (transferCode !== null && !REFERENCE.test(transferCode))
      wrong('the transfer code must be letters, digits, _ . : - (at most 64)');
    const money = amountAndFee(cell('amount'), cell('fee'), wrong);
    if (cell('currency').toUpperCase() !== 'GHS') wrong('the currency must be GHS');
    if (!state) wrong(`the status must be one of ${Object.keys(STATEMENT_STATUSES).join(', ')}`);
    const at = lineMoment(cell('date'), wrong);
    if (problems.length === before && seen.has(ours(reference)))
      wrong(`transfer ${reference} appears twice in the statement`);
    seen.add(ours(reference));
    if (problems.length > before || !money || !state || !at) continue;
    lines.push({
      line,
      reference: ours(reference),
      transferCode,
      amountPesewas: money.amount,
      feePesewas: money.fee,
      status,
      state,
      occurredAt: at,
      day: accraDay(at),
    });
  }
  if (problems.length > 0) throw new ReportProblem(problems.slice(0, 20));
  return lines;
}
