/**
 * Gateways' reports as CSV, normalised (docs/operators.md, "Reconciliation"): one format per gateway,
 * modelled on what its dashboard exports (Paystack's transactions and settlements exports; Hubtel's
 * merchant account statement). Pure: a file either reads whole or is refused with its problems.
 */
import {
  accraDay,
  amountAndFee,
  lineMoment,
  readTable,
  REFERENCE,
  ReportProblem,
} from './table.ts';

export { MAX_REPORT_CHARS, MAX_REPORT_LINES, ReportProblem } from './table.ts';

export const GATEWAYS = ['paystack', 'hubtel'] as const;
export type ReportGateway = (typeof GATEWAYS)[number];
export type LineKind = 'payment' | 'refund' | 'settlement';

export interface ReportLine {
  line: number;
  kind: LineKind;
  /** Our reference (a payment or refund), or the settlement id (a settlement). */
  reference: string;
  amountPesewas: number;
  feePesewas: number;
  status: string;
  /** The status means money moved. */
  succeeded: boolean;
  occurredAt: Date;
  /** The Accra day (UTC: Ghana keeps GMT all year). */
  day: string;
  settlementId: string | null;
}

interface Format {
  /** Canonical field → header, as the gateway's export names it (matched case-insensitively). */
  columns: Record<
    'kind' | 'reference' | 'amount' | 'fee' | 'status' | 'date' | 'settlement',
    string
  >;
  kinds: Record<string, LineKind>;
  /** Status words that mean the money moved; any other word is kept but not counted. */
  succeeded: readonly string[];
  /** Our reference as we sent it, from the one the gateway shows. */
  ours: (reference: string) => string;
}

export const REPORT_FORMATS: Readonly<Record<ReportGateway, Format>> = {
  paystack: {
    columns: {
      kind: 'type',
      reference: 'reference',
      amount: 'amount',
      fee: 'fees',
      status: 'status',
      date: 'paid_at',
      settlement: 'settlement_id',
    },
    kinds: { transaction: 'payment', refund: 'refund', settlement: 'settlement' },
    succeeded: ['success', 'processed', 'settled'],
    // Paystack refuses `_` in references, so ours (letters, digits, `_`) travel with `-` (integrations/payments/paystack.ts).
    ours: (reference) => reference.replaceAll('-', '_'),
  },
  hubtel: {
    columns: {
      kind: 'type',
      reference: 'client reference',
      amount: 'amount',
      fee: 'charges',
      status: 'status',
      date: 'date',
      settlement: 'settlement id',
    },
    kinds: { payment: 'payment', refund: 'refund', settlement: 'settlement' },
    succeeded: ['paid', 'success', 'successful', 'settled'],
    ours: (reference) => reference,
  },
};

const STATUS = /^[A-Za-z_ -]{1,30}$/;

/** Reads a gateway's report. Throws ReportProblem when any line is wrong: nothing of a bad file is imported. */
export function readReport(gateway: ReportGateway, text: string): ReportLine[] {
  const format = REPORT_FORMATS[gateway];
  const rows = readTable(text, format.columns, { file: 'report', row: 'transaction' });
  const problems: string[] = [];
  const lines: ReportLine[] = [];
  const keys = new Set<string>();
  for (const { line, cell, misshapen } of rows) {
    const wrong = (what: string) => problems.push(`line ${line}: ${what}`);
    if (misshapen) {
      wrong(misshapen);
      continue;
    }
    const kind = format.kinds[cell('kind').toLowerCase()];
    const settlementId = cell('settlement') || null;
    const reference = kind === 'settlement' ? (settlementId ?? '') : format.ours(cell('reference'));
    const status = cell('status');
    const before = problems.length;
    if (!kind) wrong(`type must be one of ${Object.keys(format.kinds).join(', ')}`);
    if (!REFERENCE.test(reference))
      wrong(
        kind === 'settlement'
          ? 'a settlement needs its settlement id (letters, digits, _ . : -, at most 64)'
          : 'the reference must be letters, digits, _ . : - (at most 64)',
      );
    if (settlementId !== null && !REFERENCE.test(settlementId))
      wrong('the settlement id must be letters, digits, _ . : - (at most 64)');
    const money = amountAndFee(cell('amount'), cell('fee'), wrong);
    if (!STATUS.test(status)) wrong('the status must be a word such as success or paid');
    const at = lineMoment(cell('date'), wrong);
    const key = `${kind}:${reference}`;
    if (problems.length === before && keys.has(key))
      wrong(`${kind} ${reference} appears twice in the report`);
    keys.add(key);
    if (problems.length > before || !kind || !money || !at) continue;
    const succeeded = format.succeeded.includes(status.toLowerCase());
    lines.push({
      line,
      kind,
      reference,
      amountPesewas: money.amount,
      feePesewas: money.fee,
      status,
      succeeded,
      occurredAt: at,
      day: accraDay(at),
      settlementId,
    });
  }
  if (problems.length > 0) throw new ReportProblem(problems.slice(0, 20));
  return lines;
}
