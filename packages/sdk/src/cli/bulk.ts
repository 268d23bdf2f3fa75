import {
  CsvProblem,
  ORDER_CSV_COLUMNS,
  ordersFromCsv as csvOrders,
  type CsvOrderRow,
} from '@partner-platform/protocol';
import type { BulkItemResult, CreateOrderRequest } from '../types.ts';
import {
  CLI,
  parseJsonInput,
  parseNumber,
  readInput,
  str,
  UsageError,
  type Command,
} from './command.ts';
import { block, json, progressBar, table } from './output.ts';

/** Orders from a CSV file with a header row of ORDER_CSV_COLUMNS names (read by the protocol package, as the dashboard does). */
export function ordersFromCsv(text: string): CreateOrderRequest[] {
  let rows: CsvOrderRow[];
  try {
    rows = csvOrders(text);
  } catch (err) {
    if (err instanceof CsvProblem)
      throw new UsageError(
        err.message.startsWith('unknown CSV column')
          ? `${err.message}; see ${CLI} orders bulk --help`
          : err.message,
      );
    throw err;
  }
  const bad = rows.find((r) => r.problems.length > 0);
  if (bad) throw new UsageError(`line ${bad.line}, ${bad.problems.join('; ')}`);
  return rows.map((r) => r.order as unknown as CreateOrderRequest);
}

function loadOrders(file: string): CreateOrderRequest[] {
  if (/\.csv$/i.test(file)) return ordersFromCsv(readInput(file));
  const parsed = parseJsonInput(file) as unknown;
  const list = Array.isArray(parsed) ? parsed : (parsed as { orders?: unknown } | null)?.orders;
  if (!Array.isArray(list))
    throw new UsageError(`${file} must hold a JSON array of orders or {"orders": [...]}`);
  return list as CreateOrderRequest[];
}

export const bulkCommand: Command = {
  name: 'orders bulk',
  usage: '-f FILE.csv|FILE.json [--chunk N]',
  summary:
    'Create many orders through orders.create_bulk, N (default 100) per call; exit 1 if any failed',
  help: [
    'JSON: an array of orders.create bodies, or {"orders": [...]}.',
    'CSV: a header row naming some of these columns (empty cells are left out):',
    ...chunks(Object.keys(ORDER_CSV_COLUMNS), 6).map((names) => `  ${names.join(', ')}`),
    'Coordinates need both *_lat and *_lng; payment_is_paid is true or false.',
    'Re-running a file is safe: an order an earlier run created is reported as already created (with its',
    'order_id in --json), never created twice, and is no failure.',
  ],
  options: { file: { type: 'string', short: 'f' }, chunk: { type: 'string' } },
  async run(ctx) {
    const file = str(ctx, 'file');
    if (!file) throw new UsageError('-f FILE is required');
    const chunk = parseNumber(str(ctx, 'chunk') ?? '100', '--chunk', { integer: true, min: 1 });
    if (chunk > 100) throw new UsageError('--chunk must be at most 100');
    const orders = loadOrders(file);
    if (orders.length === 0) throw new UsageError(`${file} holds no orders`);
    const client = ctx.client();
    const results: Array<BulkItemResult & { row: number }> = [];
    // An order a previous run created answers DUPLICATE_ORDER_REFERENCE: `existing`, not a failure.
    const failed = (r: BulkItemResult) => !r.ok && !r.existing;
    const counts = () => ({
      created: results.filter((r) => r.ok).length,
      existing: results.filter((r) => r.existing).length,
      failed: results.filter(failed).length,
    });
    const report = () => {
      const summary = { total: orders.length, sent: results.length, ...counts() };
      if (ctx.json) return ctx.io.out(json({ summary, results }));
      const failures = results.filter(failed);
      const optional = (label: string, value: number, shown: boolean): Array<[string, unknown]> =>
        shown ? [[label, value]] : [];
      ctx.io.out(
        block([
          ['total', summary.total],
          ...optional('sent', summary.sent, summary.sent < summary.total),
          ['created', summary.created],
          ...optional('already created', summary.existing, summary.existing > 0),
          ['failed', summary.failed],
        ]),
      );
      if (failures.length > 0)
        ctx.io.out(
          `\n${table(
            ['row', 'reference', 'status', 'code', 'message'],
            failures.map((f) => [f.row, f.order_reference, f.status_code, f.code, f.message]),
          )}`,
        );
    };
    const progress = (extra: string) =>
      ctx.io.progress?.(progressBar(results.length, orders.length, extra));
    progress('starting');
    for (let start = 0; start < orders.length; start += chunk) {
      try {
        const res = await client.delivery.orders.createBulk(orders.slice(start, start + chunk), {
          findExisting: true,
        });
        res.results.forEach((r, i) => results.push({ row: start + i + 1, ...r }));
      } catch (err) {
        // Earlier chunks were created: say so before the error line.
        ctx.io.progress?.('\n');
        report();
        throw err;
      }
      const now = counts();
      progress(`created ${now.created}, already created ${now.existing}, failed ${now.failed}`);
    }
    ctx.io.progress?.('\n');
    report();
    return results.some(failed) ? 1 : 0;
  },
};

function chunks<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, i * size + size),
  );
}
