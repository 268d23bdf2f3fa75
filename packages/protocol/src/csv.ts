/**
 * Orders as CSV: the columns the SDK's `ppctl orders bulk` and the dashboard's upload both accept,
 * and how a row becomes an orders.create body. Pure (no Node API): it runs in the SDK, the server
 * and a browser alike. The body is not validated here; the platform checks it like any orders.create.
 */

/** A problem with the file as a whole (no row can be read): empty, unknown column, broken quoting. */
export class CsvProblem extends Error {
  override readonly name = 'CsvProblem';
}

/** CSV column → field of the orders.create body, and how its text is read. Empty cells are left out. */
export const ORDER_CSV_COLUMNS: Readonly<
  Record<string, { path: string; kind?: 'number' | 'boolean' }>
> = {
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

/** One record of a CSV file and the line of the file it starts on (1-based). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/**
 * RFC 4180 records: quoted fields may hold commas, newlines and doubled quotes; CRLF or LF; a
 * leading BOM is dropped, blank records are skipped.
 */
export function csvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const src = text.replace(/^\uFEFF/, '');
  const end = () => {
    row.push(field);
    if (row.some((cell) => cell.trim() !== '')) records.push({ line: start, cells: row });
    row = [];
    field = '';
  };
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\n' || (c === '\r' && src[i + 1] !== '\n')) line++;
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
      if (c === '\r' && src[i + 1] === '\n') {
        i++;
        line++;
      }
      end();
      start = line;
    } else field += c;
  }
  if (quoted) throw new CsvProblem(`the quoted field that starts on line ${start} is never closed`);
  if (field !== '' || row.length > 0) end();
  return records;
}

/** The cells of each non-blank record (see csvRecords). */
export function parseCsv(text: string): string[][] {
  return csvRecords(text).map((r) => r.cells);
}

/** One data row: the orders.create body it reads as, or the problems that stop it being one. */
export interface CsvOrderRow {
  line: number;
  order: Record<string, unknown>;
  /** Sentences such as "delivery_lat must be a number"; empty when the row reads as an order. */
  problems: string[];
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys.at(-1)!] = value;
}

/**
 * The rows of a CSV file whose header names ORDER_CSV_COLUMNS, each as an orders.create body.
 * A file-wide problem (empty, no data row, unknown or repeated column) throws CsvProblem; a row's
 * own problems are listed on the row, so the other rows can still be read.
 */
export function ordersFromCsv(text: string): CsvOrderRow[] {
  const [header, ...rows] = csvRecords(text);
  if (!header) throw new CsvProblem('the CSV file is empty');
  const names = header.cells.map((h) => h.trim());
  const unknown = names.filter((n) => !Object.hasOwn(ORDER_CSV_COLUMNS, n));
  if (unknown.length > 0)
    throw new CsvProblem(
      `unknown CSV column ${unknown.map((n) => JSON.stringify(n)).join(', ')} in the header (line ${header.line})`,
    );
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated) throw new CsvProblem(`the CSV column "${repeated}" appears twice in the header`);
  return rows.map(({ line, cells }) => {
    const order: Record<string, unknown> = {};
    const problems: string[] = [];
    if (cells.length > names.length)
      problems.push(`has ${cells.length} cells but the header names ${names.length} columns`);
    names.forEach((name, i) => {
      const raw = (cells[i] ?? '').trim();
      if (raw === '') return;
      const col = ORDER_CSV_COLUMNS[name]!;
      let value: unknown = raw;
      if (col.kind === 'number') {
        value = Number(raw);
        if (!Number.isFinite(value)) problems.push(`${name} must be a number`);
      }
      if (col.kind === 'boolean') {
        if (!/^(true|false|yes|no|1|0)$/i.test(raw)) problems.push(`${name} must be true or false`);
        value = /^(true|yes|1)$/i.test(raw);
      }
      setPath(order, col.path, value);
    });
    return { line, order, problems };
  });
}
