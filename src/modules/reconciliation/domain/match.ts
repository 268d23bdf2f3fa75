/**
 * A day's reconciliation, pure: the ledger's side against the gateway's report (or couriers' cash
 * collected against handed over), the differences, and whether the clearing came back to zero.
 */
import { versionText, type Version } from './versions.ts';

export type DifferenceKind =
  | 'missing_in_ledger'
  | 'missing_in_report'
  | 'missing_in_statement'
  | 'amount_differs'
  | 'fee_differs'
  | 'status_differs'
  | 'reimported_differently'
  | 'settlement_not_approved'
  | 'cash_not_handed_over'
  | 'handed_over_more';
export type DayStatus = 'matched' | 'differences' | 'flagged';

export interface Difference {
  kind: DifferenceKind;
  /** Our reference, a settlement id, or a courier id. */
  reference: string;
  ledgerPesewas: number | null;
  reportPesewas: number | null;
  note: string;
}

export interface DayResult {
  status: DayStatus;
  matched: number;
  /**
   * Left on the clearing for the day once its settlements (or handovers) count, signed as the ledger
   * signs it: negative is money still held (received, not settled or handed over); 0 when it came back to zero.
   */
  residuePesewas: number;
  differences: Difference[];
}

/** One journal's entry on the gateway's clearing account: negative is money in (a payment), positive out (a refund). */
export interface LedgerSide {
  reference: string;
  amountPesewas: number;
}

export interface ReportSide {
  kind: 'payment' | 'refund';
  reference: string;
  amountPesewas: number;
  status: string;
  succeeded: boolean;
  settlementId: string | null;
}

export interface SettlementSide {
  settlementId: string;
  amountPesewas: number;
  feePesewas: number;
  /** What the report's lines paid by this settlement add up to (gross and fees). */
  linesPesewas: number;
  linesFeePesewas: number;
  /** Its journal waits for a second operator (proposed), was refused (rejected), or is posted (approved). */
  approval: 'proposed' | 'approved' | 'rejected' | null;
}

/** A line imported again with another amount, fee or status: the version held and the other one. */
export interface ReimportedSide {
  kind: string;
  reference: string;
  held: Version;
  other: Version;
}

/** Each second version of a line, as a difference of its day. */
export const reimportedDifferences = (versions: readonly ReimportedSide[]): Difference[] =>
  versions.map((v) => ({
    kind: 'reimported_differently',
    reference: v.reference,
    ledgerPesewas: null,
    reportPesewas: v.other.amountPesewas,
    note: `the ${v.kind} was imported again as ${versionText(v.other)}; first as ${versionText(v.held)}`,
  }));

export const result = (
  matched: number,
  residuePesewas: number,
  differences: Difference[],
): DayResult => ({
  status: residuePesewas !== 0 ? 'flagged' : differences.length > 0 ? 'differences' : 'matched',
  matched,
  residuePesewas,
  differences,
});

/**
 * Matches by kind and reference, then amount. `settled` holds the settlement ids whose journal is
 * posted: a day's payments they cover have left the clearing account for the bank.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one pass over both sides of a gateway's day: every case of a line's match is read in one place
export function matchGatewayDay(
  ledger: LedgerSide[],
  report: ReportSide[],
  settlements: SettlementSide[],
  settled: ReadonlySet<string>,
  versions: readonly ReimportedSide[] = [],
): DayResult {
  const ours = new Map<string, number>();
  for (const e of ledger) {
    const key = `${e.amountPesewas < 0 ? 'payment' : 'refund'}:${e.reference}`;
    ours.set(key, (ours.get(key) ?? 0) + Math.abs(e.amountPesewas));
  }
  const differences: Difference[] = [];
  let matched = 0;
  let residue = ledger.reduce((sum, e) => sum + e.amountPesewas, 0);
  const seen = new Set<string>();
  for (const line of report) {
    const key = `${line.kind}:${line.reference}`;
    seen.add(key);
    const mine = ours.get(key);
    if (line.succeeded && line.settlementId !== null && settled.has(line.settlementId))
      residue += line.kind === 'payment' ? line.amountPesewas : -line.amountPesewas;
    if (!line.succeeded) {
      if (mine !== undefined)
        differences.push({
          kind: 'missing_in_report',
          reference: line.reference,
          ledgerPesewas: mine,
          reportPesewas: null,
          note: `the ${line.kind} is in the ledger but the report says ${line.status}`,
        });
      continue;
    }
    if (mine === undefined)
      differences.push({
        kind: 'missing_in_ledger',
        reference: line.reference,
        ledgerPesewas: null,
        reportPesewas: line.amountPesewas,
        note: `a ${line.kind} in the report the ledger does not hold for this day`,
      });
    else if (mine !== line.amountPesewas)
      differences.push({
        kind: 'amount_differs',
        reference: line.reference,
        ledgerPesewas: mine,
        reportPesewas: line.amountPesewas,
        note: `the ${line.kind}'s amount differs`,
      });
    else matched++;
  }
  for (const [key, amount] of ours) {
    if (seen.has(key)) continue;
    const [kind, reference] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
    differences.push({
      kind: 'missing_in_report',
      reference,
      ledgerPesewas: amount,
      reportPesewas: null,
      note: `a ${kind} in the ledger the report does not hold for this day`,
    });
  }
  for (const s of settlements) {
    if (s.amountPesewas !== s.linesPesewas)
      differences.push({
        kind: 'amount_differs',
        reference: s.settlementId,
        ledgerPesewas: s.linesPesewas,
        reportPesewas: s.amountPesewas,
        note: "the settlement's amount differs from the lines it pays",
      });
    if (s.feePesewas !== s.linesFeePesewas)
      differences.push({
        kind: 'fee_differs',
        reference: s.settlementId,
        ledgerPesewas: s.linesFeePesewas,
        reportPesewas: s.feePesewas,
        note: "the settlement's fee differs from the fees of the lines it pays",
      });
    if (s.approval === 'proposed' || s.approval === 'rejected') {
      const why =
        s.approval === 'proposed'
          ? "waits for a second finance operator's approval"
          : 'was rejected';
      differences.push({
        kind: 'settlement_not_approved',
        reference: s.settlementId,
        ledgerPesewas: null,
        reportPesewas: s.amountPesewas,
        note: `the settlement ${why}: it is not posted to the bank`,
      });
    }
  }
  return result(matched, residue, [...differences, ...reimportedDifferences(versions)]);
}

export interface CourierDay {
  courierId: string;
  collectedPesewas: number;
  handedOverPesewas: number;
}

/** Couriers' cash for a day: each courier should hand over what they collected; the day's net is the residue. */
export function matchCashDay(couriers: CourierDay[]): DayResult {
  const differences: Difference[] = [];
  let matched = 0;
  let residue = 0;
  for (const c of couriers) {
    residue += c.handedOverPesewas - c.collectedPesewas;
    if (c.collectedPesewas === c.handedOverPesewas) matched++;
    else if (c.collectedPesewas > c.handedOverPesewas)
      differences.push({
        kind: 'cash_not_handed_over',
        reference: c.courierId,
        ledgerPesewas: c.collectedPesewas,
        reportPesewas: c.handedOverPesewas,
        note: 'collected more than was handed over this day',
      });
    else
      differences.push({
        kind: 'handed_over_more',
        reference: c.courierId,
        ledgerPesewas: c.collectedPesewas,
        reportPesewas: c.handedOverPesewas,
        note: 'handed over more than was collected this day (cash from an earlier day)',
      });
  }
  return result(matched, residue, differences);
}
