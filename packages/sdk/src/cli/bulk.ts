import type { BulkItemResult, CreateOrderRequest } from '../types.ts';
import { CLI, parseJsonInput, parseNumber, readInput, str, UsageError, type Command } from './command.ts';
import { block, json, progressBar, table } from './output.ts';

/** CSV column → field of the orders.create body, and how its text is read. Empty cells are left out. */
const COLUMNS: Record<string, { path: string; kind?: 'number' | 'boolean' }> = {
  order_reference: { path: 'order_reference' },
  customer_name: { path: 'customer.name' },
  customer_phone: { path: 'customer.phone' },
  customer_whatsapp: { path: 'customer.whatsapp' },
  delivery_address: { path: 'delivery.address' },
  delivery_city: { path: 'delivery.city' },
  delivery_region: { path: 'delivery.region' },
  delivery_lat: { path: 'delivery.coordinates.lat', kind: 'number' },
  delivery_lng: { path: 'delivery.coordinates.lng', kind: 'number' },
  delivery_location_id: { path: 'delivery.location_id' },
  delivery_notes: { path: 'delivery.notes' },
  item: { path: 'item' },
  pickup_contact_person: { path: 'pickup.contact_person' },
  pickup_contact_phone: { path: 'pickup.contact_phone' },
  pickup_address: { path: 'pickup.address' },
  pickup_lat: { path: 'pickup.coordinates.lat', kind: 'number' },
  pickup_lng: { path: 'pickup.coordinates.lng', kind: 'number' },
  pickup_location_id: { path: 'pickup.location_id' },
  payment_payer: { path: 'payment.payer' },
  payment_method: { path: 'payment.method' },
  payment_amount: { path: 'payment.amount', kind: 'number' },
  payment_is_paid: { path: 'payment.is_paid', kind: 'boolean' },
  delivery_date: { path: 'delivery_date' },
  special_instructions: { path: 'special_instructions' },
  webhook_url: { path: 'webhook_url' },
};

/** RFC 4180: quoted fields may hold commas, newlines and doubled quotes; CRLF or LF; a leading BOM is dropped. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (quoted) throw new UsageError('CSV has an unterminated quoted field');
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((cell) => cell.trim() !== ''));
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys.at(-1)!] = value;
}

/** Orders from a CSV file with a header row of COLUMNS names. */
export function ordersFromCsv(text: string): CreateOrderRequest[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new UsageError('the CSV file is empty');
  const names = header.map((h) => h.trim());
  const unknown = names.filter((n) => !(n in COLUMNS));
  if (unknown.length > 0) throw new UsageError(`unknown CSV column ${unknown.map((n) => JSON.stringify(n)).join(', ')}; see ${CLI} orders bulk --help`);
  return rows.map((cells, r) => {
    const order: Record<string, unknown> = {};
    names.forEach((name, i) => {
      const raw = (cells[i] ?? '').trim();
      if (raw === '') return;
      const col = COLUMNS[name]!;
      let value: unknown = raw;
      if (col.kind === 'number') value = parseNumber(raw, `line ${r + 2}, ${name}`);
      if (col.kind === 'boolean') {
        if (!/^(true|false|yes|no|1|0)$/i.test(raw)) throw new UsageError(`line ${r + 2}, ${name} must be true or false`);
        value = /^(true|yes|1)$/i.test(raw);
      }
      setPath(order, col.path, value);
    });
    return order as unknown as CreateOrderRequest;
  });
}

function loadOrders(file: string): CreateOrderRequest[] {
  if (/\.csv$/i.test(file)) return ordersFromCsv(readInput(file));
  const parsed = parseJsonInput(file) as unknown;
  const list = Array.isArray(parsed) ? parsed : (parsed as { orders?: unknown } | null)?.orders;
  if (!Array.isArray(list)) throw new UsageError(`${file} must hold a JSON array of orders or {"orders": [...]}`);
  return list as CreateOrderRequest[];
}

export const bulkCommand: Command = {
  name: 'orders bulk',
  usage: '-f FILE.csv|FILE.json [--chunk N]',
  summary: 'Create many orders through orders.create_bulk, N (default 100) per call; exit 1 if any failed',
  help: [
    'JSON: an array of orders.create bodies, or {"orders": [...]}.',
    'CSV: a header row naming some of these columns (empty cells are left out):',
    ...chunks(Object.keys(COLUMNS), 6).map((names) => `  ${names.join(', ')}`),
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
      const optional = (label: string, value: number, shown: boolean): Array<[string, unknown]> => (shown ? [[label, value]] : []);
      ctx.io.out(
        block([
          ['total', summary.total],
          ...optional('sent', summary.sent, summary.sent < summary.total),
          ['created', summary.created],
          ...optional('already created', summary.existing, summary.existing > 0),
          ['failed', summary.failed],
        ]),
      );
      if (failures.length > 0) ctx.io.out(`\n${table(['row', 'reference', 'status', 'code', 'message'], failures.map((f) => [f.row, f.order_reference, f.status_code, f.code, f.message]))}`);
    };
    const progress = (extra: string) => ctx.io.progress?.(progressBar(results.length, orders.length, extra));
    progress('starting');
    for (let start = 0; start < orders.length; start += chunk) {
      try {
        const res = await client.delivery.orders.createBulk(orders.slice(start, start + chunk), { findExisting: true });
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
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));
}
