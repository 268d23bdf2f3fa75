/**
 * A day of money out, pure: the transfer provider's statement against the transfers we sent
 * (payouts, buyer refunds by mobile money), each matched whole by its reference: amount, fee and
 * status. A statement line is one transfer in its latest state, not a movement, so nothing is
 * carried over from day to day: the day is `matched` or has `differences`, never `flagged`.
 */
import {
  reimportedDifferences,
  result,
  type DayResult,
  type Difference,
  type ReimportedSide,
} from './match.ts';
import type { TransferLineState } from './statement.ts';

/** A transfer as the module that sent it holds it. */
export interface TransferRecord {
  /** Our reference, the one the provider saw. */
  reference: string;
  /** The ledger subject of its journals (a payout's id, a refund's sale). */
  subjectId: string;
  /** What it is, in words: payout, buyer refund. */
  what: string;
  amountPesewas: number;
  /** The fee booked for it; null when none is. */
  feePesewas: number | null;
  /** `not_sent`: it never went to the provider (awaiting approval, rejected, cancelled). */
  state: TransferLineState | 'not_sent';
}

export interface StatementSide {
  reference: string;
  amountPesewas: number;
  feePesewas: number;
  status: string;
  state: TransferLineState;
}

/** What the statement says against what we hold: each disagreement is a difference. */
function compare(line: StatementSide, ours: TransferRecord): Difference[] {
  const out: Difference[] = [];
  const diff = (
    kind: Difference['kind'],
    ledgerPesewas: number | null,
    reportPesewas: number | null,
    note: string,
  ) => out.push({ kind, reference: line.reference, ledgerPesewas, reportPesewas, note });
  if (ours.state !== line.state)
    diff(
      'status_differs',
      ours.amountPesewas,
      line.amountPesewas,
      `the statement says ${line.status}; the ${ours.what} is ${ours.state.replace('_', ' ')}`,
    );
  if (ours.amountPesewas !== line.amountPesewas)
    diff(
      'amount_differs',
      ours.amountPesewas,
      line.amountPesewas,
      `the ${ours.what}'s amount differs`,
    );
  // A fee is owed only when both sides say the money left.
  const moved = (state: string) => state === 'paid' || state === 'reversed';
  if (moved(line.state) && moved(ours.state) && (ours.feePesewas ?? 0) !== line.feePesewas)
    diff(
      'fee_differs',
      ours.feePesewas,
      line.feePesewas,
      `the fee booked for the ${ours.what} differs from the statement's`,
    );
  return out;
}

/**
 * `lines` are the statement's lines of the day and `ours` the transfers they name (by reference);
 * `moved` the transfers whose money the ledger moved on the provider's clearing that day, and
 * `onStatement` which of those any statement (of any day) holds.
 */
export function matchTransferDay(
  lines: readonly StatementSide[],
  ours: ReadonlyMap<string, TransferRecord>,
  moved: readonly TransferRecord[],
  onStatement: ReadonlySet<string>,
  versions: readonly ReimportedSide[],
): DayResult {
  const differences: Difference[] = [];
  let matched = 0;
  for (const line of lines) {
    const record = ours.get(line.reference);
    if (!record) {
      // A failed transfer moved no money: one we do not know (an earlier, failed attempt of a refund) is nothing to chase.
      if (line.state !== 'failed')
        differences.push({
          kind: 'missing_in_ledger',
          reference: line.reference,
          ledgerPesewas: null,
          reportPesewas: line.amountPesewas,
          note: `a transfer (${line.status}) that is no payout or buyer refund of ours`,
        });
      continue;
    }
    const found = compare(line, record);
    if (found.length === 0) matched++;
    differences.push(...found);
  }
  for (const record of moved) {
    if (!onStatement.has(record.reference))
      differences.push({
        kind: 'missing_in_statement',
        reference: record.reference,
        ledgerPesewas: record.amountPesewas,
        reportPesewas: null,
        note: `the ${record.what} moved money this day but no statement holds it`,
      });
  }
  return result(matched, 0, [...differences, ...reimportedDifferences(versions)]);
}
