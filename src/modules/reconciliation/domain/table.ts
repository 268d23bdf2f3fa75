/**
 * What every file reconciliation imports shares (a gateway's report, a transfer provider's
 * statement): a CSV with a header naming its columns (any order, case aside), GHS amounts, dates
 * and references read strictly. Pure: a file either reads whole or is refused with its problems.
 */
import { CsvProblem, csvRecords, type CsvRecord } from '@partner-platform/protocol';

export const MAX_REPORT_CHARS = 256 * 1024;
export const MAX_REPORT_LINES = 5_000;
const MAX_PESEWAS = 10_000_000_000;
export const REFERENCE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;
const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A file that cannot be imported: every problem found (at most 20), each naming its line. */
export class ReportProblem extends Error {
  override readonly name = 'ReportProblem';
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

/** GHS with at most two decimals, in pesewas; null when it is not such an amount or absurdly large. */
const pesewas = (text: string): number | null => {
  if (!AMOUNT.test(text)) return null;
  const [whole, part = ''] = text.split('.');
  const n = Number(whole) * 100 + Number(part.padEnd(2, '0'));
  return n <= MAX_PESEWAS ? n : null;
};

/** A day or an ISO date and time between 2000 and 2100; a time without an offset is Accra's, which is UTC. */
function moment(text: string): Date | null {
  if (!DAY_ONLY.test(text) && !DATE_TIME.test(text)) return null;
  const iso = DAY_ONLY.test(text)
    ? `${text}T00:00:00Z`
    : /(Z|[+-]\d{2}:?\d{2})$/.test(text)
      ? text.replace(' ', 'T')
      : `${text.replace(' ', 'T')}Z`;
  const day = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  const at = new Date(iso);
  // 2026-02-30 is refused rather than read as 2 March.
  if (
    Number.isNaN(at.getTime()) ||
    Number.isNaN(day.getTime()) ||
    day.toISOString().slice(0, 10) !== text.slice(0, 10)
  )
    return null;
  const year = at.getUTCFullYear();
  return year >= 2000 && year <= 2100 ? at : null;
}

/** The Accra day of a moment (UTC: Ghana keeps GMT all year). */
export const accraDay = (at: Date) => at.toISOString().slice(0, 10);

function headerIndex<F extends string>(
  header: string[],
  columns: Record<F, string>,
): Record<F, number> {
  const names = header.map((h) => h.trim().toLowerCase());
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) problems.push(`column "${name.slice(0, 40)}" appears twice`);
    seen.add(name);
  }
  const wanted: string[] = Object.values(columns);
  for (const name of names)
    if (!wanted.includes(name))
      problems.push(`unknown column "${name.slice(0, 40)}" (expected ${wanted.join(', ')})`);
  for (const name of wanted) if (!names.includes(name)) problems.push(`missing column "${name}"`);
  if (problems.length > 0) throw new ReportProblem(problems.slice(0, 20));
  return Object.fromEntries(
    Object.entries(columns).map(([field, name]) => [field, names.indexOf(name as string)]),
  ) as Record<F, number>;
}

/** One data row: its line in the file and its trimmed cell by field, or why its shape is wrong. */
export interface TableRow<F extends string> {
  line: number;
  cell: (field: F) => string;
  /** The row's cells do not match the header: nothing else of it is read. */
  misshapen: string | null;
}

/**
 * Reads the file's rows by field (`columns`: field → header, lower case), refusing a file too large,
 * holding control characters, badly quoted, with unknown, missing or repeated columns, empty or too
 * long. `what` names the file and its rows in the problems.
 */
export function readTable<F extends string>(
  text: string,
  columns: Record<F, string>,
  what: { file: string; row: string },
): TableRow<F>[] {
  if (text.length > MAX_REPORT_CHARS)
    throw new ReportProblem([
      `the ${what.file} is larger than ${MAX_REPORT_CHARS / 1024} KiB: split it by day`,
    ]);
  // Tabs and line breaks aside, control characters have no business in such a file.
  if (/(?![\t\n\r])[\p{Cc}\p{Cs}]/u.test(text))
    throw new ReportProblem([
      `the ${what.file} holds control characters: is it really a CSV file?`,
    ]);
  let records: CsvRecord[];
  try {
    records = csvRecords(text);
  } catch (err) {
    if (err instanceof CsvProblem) throw new ReportProblem([err.message]);
    throw err;
  }
  const [header, ...rows] = records;
  if (!header)
    throw new ReportProblem([
      `the ${what.file} is empty: it needs a header row, then one line per ${what.row}`,
    ]);
  const col = headerIndex(header.cells, columns);
  if (rows.length === 0)
    throw new ReportProblem([`the ${what.file} has a header row but no line under it`]);
  if (rows.length > MAX_REPORT_LINES)
    throw new ReportProblem([
      `the ${what.file} has ${rows.length} lines; import at most ${MAX_REPORT_LINES} at a time`,
    ]);
  return rows.map(({ line, cells }) => ({
    line,
    cell: (field: F) => (cells[col[field]] ?? '').trim(),
    misshapen:
      cells.length === header.cells.length
        ? null
        : `has ${cells.length} cells, the header ${header.cells.length}`,
  }));
}

/** A line's amount and fee (an empty fee is none), each problem told through `wrong`; null when either is wrong. */
export function amountAndFee(
  amountText: string,
  feeText: string,
  wrong: (what: string) => void,
): { amount: number; fee: number } | null {
  const amount = pesewas(amountText);
  const fee = feeText === '' ? 0 : pesewas(feeText);
  if (amount === null) wrong('the amount must be in GHS with at most two decimals, like 120.50');
  if (fee === null) wrong('the fee must be in GHS with at most two decimals, like 1.95');
  if (amount !== null && fee !== null && fee > amount) wrong('the fee is larger than the amount');
  return amount !== null && fee !== null && fee <= amount ? { amount, fee } : null;
}

/** A line's date, or null with its problem told through `wrong`. */
export function lineMoment(text: string, wrong: (what: string) => void): Date | null {
  const at = moment(text);
  if (!at) wrong('the date must be YYYY-MM-DD or an ISO date and time between 2000 and 2100');
  return at;
}
