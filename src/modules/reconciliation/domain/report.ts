/**
 * Gateways' reports as CSV, normalised (docs/operators.md, "Reconciliation"): one format per gateway,
 * modelled on what its dashboard exports (Paystack's transactions and settlements exports; Hubtel's
 * merchant account statement). Pure: a file either reads whole or is refused with its problems.
 */
import { CsvProblem, csvRecords, type CsvRecord } from '@partner-platform/protocol';

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
  columns: Record<'kind' | 'reference' | 'amount' | 'fee' | 'status' | 'date' | 'settlement', string>;
  kinds: Record<string, LineKind>;
  /** Status words that mean the money moved; any other word is kept but not counted. */
  succeeded: readonly string[];
  /** Our reference as we sent it, from the one the gateway shows. */
  ours: (reference: string) => string;
}

export const REPORT_FORMATS: Readonly<Record<ReportGateway, Format>> = {
  paystack: {
    columns: { kind: 'type', reference: 'reference', amount: 'amount', fee: 'fees', status: 'status', date: 'paid_at', settlement: 'settlement_id' },
    kinds: { transaction: 'payment', refund: 'refund', settlement: 'settlement' },
    succeeded: ['success', 'processed', 'settled'],
    // Paystack refuses `_` in references, so ours (letters, digits, `_`) travel with `-` (integrations/payments/paystack.ts).
    ours: (reference) => reference.replaceAll('-', '_'),
  },
  hubtel: {
    columns: { kind: 'type', reference: 'client reference', amount: 'amount', fee: 'charges', status: 'status', date: 'date', settlement: 'settlement id' },
    kinds: { payment: 'payment', refund: 'refund', settlement: 'settlement' },
    succeeded: ['paid', 'success', 'successful', 'settled'],
    ours: (reference) => reference,
  },
};

export const MAX_REPORT_CHARS = 256 * 1024;
export const MAX_REPORT_LINES = 5_000;
const MAX_PESEWAS = 10_000_000_000;
const REFERENCE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;
const STATUS = /^[A-Za-z_ -]{1,30}$/;
const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A report that cannot be imported: every problem found (at most 20), each naming its line. */
export class ReportProblem extends Error {
  override readonly name = 'ReportProblem';
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

const pesewas = (text: string): number | null => {
  if (!AMOUNT.test(text)) return null;
  const [whole, part = ''] = text.split('.');
  const n = Number(whole) * 100 + Number(part.padEnd(2, '0'));
  return n <= MAX_PESEWAS ? n : null;
};

function moment(text: string): Date | null {
  if (!DAY_ONLY.test(text) && !DATE_TIME.test(text)) return null;
  // A time without an offset is Accra's, which is UTC.
  const iso = DAY_ONLY.test(text) ? `${text}T00:00:00Z` : /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text.replace(' ', 'T') : `${text.replace(' ', 'T')}Z`;
  const day = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  const at = new Date(iso);
  // 2026-02-30 is refused rather than read as 2 March.
  if (Number.isNaN(at.getTime()) || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text.slice(0, 10)) return null;
  const year = at.getUTCFullYear();
  return year >= 2000 && year <= 2100 ? at : null;
}

function headerIndex(header: string[], format: Format): Record<keyof Format['columns'], number> {
  const names = header.map((h) => h.trim().toLowerCase());
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) problems.push(`column "${name.slice(0, 40)}" appears twice`);
    seen.add(name);
  }
  const wanted = Object.values(format.columns);
  for (const name of names) if (!wanted.includes(name)) problems.push(`unknown column "${name.slice(0, 40)}" (expected ${wanted.join(', ')})`);
  for (const name of wanted) if (!names.includes(name)) problems.push(`missing column "${name}"`);
  if (problems.length > 0) throw new ReportProblem(problems.slice(0, 20));
  return Object.fromEntries(Object.entries(format.columns).map(([field, name]) => [field, names.indexOf(name)])) as Record<keyof Format['columns'], number>;
}

/** Reads a gateway's report. Throws ReportProblem when any line is wrong: nothing of a bad file is imported. */
export function readReport(gateway: ReportGateway, text: string): ReportLine[] {
  if (text.length > MAX_REPORT_CHARS) throw new ReportProblem([`the report is larger than ${MAX_REPORT_CHARS / 1024} KiB: split it by day`]);
  // Tabs and line breaks aside, control characters have no business in a report.
  if (/(?![\t\n\r])[\p{Cc}\p{Cs}]/u.test(text)) throw new ReportProblem(['the report holds control characters: is it really a CSV file?']);
  const format = REPORT_FORMATS[gateway];
  let records: CsvRecord[];
  try {
    records = csvRecords(text);
  } catch (err) {
    if (err instanceof CsvProblem) throw new ReportProblem([err.message]);
    throw err;
  }
  const [header, ...rows] = records;
  if (!header) throw new ReportProblem(['the report is empty: it needs a header row, then one line per transaction']);
  const col = headerIndex(header.cells, format);
  if (rows.length === 0) throw new ReportProblem(['the report has a header row but no line under it']);
  if (rows.length > MAX_REPORT_LINES) throw new ReportProblem([`the report has ${rows.length} lines; import at most ${MAX_REPORT_LINES} at a time`]);
  const problems: string[] = [];
  const lines: ReportLine[] = [];
  const keys = new Set<string>();
  for (const { line, cells } of rows) {
    const cell = (field: keyof Format['columns']) => (cells[col[field]] ?? '').trim();
    const wrong = (what: string) => problems.push(`line ${line}: ${what}`);
    if (cells.length !== header.cells.length) {
      wrong(`has ${cells.length} cells, the header ${header.cells.length}`);
      continue;
    }
    const kind = format.kinds[cell('kind').toLowerCase()];
    const settlementId = cell('settlement') || null;
    const reference = kind === 'settlement' ? (settlementId ?? '') : format.ours(cell('reference'));
    const amount = pesewas(cell('amount'));
    const fee = cell('fee') === '' ? 0 : pesewas(cell('fee'));
    const status = cell('status');
    const at = moment(cell('date'));
    const before = problems.length;
    if (!kind) wrong(`type must be one of ${Object.keys(format.kinds).join(', ')}`);
    if (!REFERENCE.test(reference)) wrong(kind === 'settlement' ? 'a settlement needs its settlement id (letters, digits, _ . : -, at most 64)' : 'the reference must be letters, digits, _ . : - (at most 64)');
    if (settlementId !== null && !REFERENCE.test(settlementId)) wrong('the settlement id must be letters, digits, _ . : - (at most 64)');
    if (amount === null) wrong('the amount must be in GHS with at most two decimals, like 120.50');
    if (fee === null) wrong('the fee must be in GHS with at most two decimals, like 1.95');
    if (amount !== null && fee !== null && fee > amount) wrong('the fee is larger than the amount');
    if (!STATUS.test(status)) wrong('the status must be a word such as success or paid');
    if (!at) wrong('the date must be YYYY-MM-DD or an ISO date and time between 2000 and 2100');
    const key = `${kind}:${reference}`;
    if (problems.length === before && keys.has(key)) wrong(`${kind} ${reference} appears twice in the report`);
    keys.add(key);
    if (problems.length > before || !kind || amount === null || fee === null || !at) continue;
    const succeeded = format.succeeded.includes(status.toLowerCase());
    lines.push({ line, kind, reference, amountPesewas: amount, feePesewas: fee, status, succeeded, occurredAt: at, day: at.toISOString().slice(0, 10), settlementId });
  }
  if (problems.length > 0) throw new ReportProblem(problems.slice(0, 20));
  return lines;
}
