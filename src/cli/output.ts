import { styleText } from 'node:util';

/**
 * Human-readable output: aligned key/value blocks and tables, styled. `--json` bypasses all of this.
 * Styles are always written here and stripped again where colour is off (see program.ts), so no
 * formatter needs to know where its text goes.
 */

type Style = Parameters<typeof styleText>[0];
export const paint = (style: Style, text: string): string =>
  styleText(style, text, { validateStream: false });

/**
 * Whether a stream gets colour: never with NO_COLOR (or FORCE_COLOR=0), always with FORCE_COLOR or
 * CLICOLOR_FORCE, otherwise when it is a terminal that has colours (TERM=dumb has none).
 */
export function wantsColour(
  stream: { isTTY?: boolean; hasColors?: () => boolean },
  env: NodeJS.ProcessEnv,
): boolean {
  if (env.NO_COLOR || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.FORCE_COLOR || env.CLICOLOR_FORCE !== undefined) return true;
  return Boolean(stream.isTTY && stream.hasColors?.());
}

type Row = Record<string, unknown>;
/** A column or line: a field name of the record, or a function of the record (the API's JSON, untyped). */
export type Field = string | ((record: Record<string, any>) => unknown);
export type Fields = Record<string, Field>;

/** One value as text: `-` for nothing, yes/no for booleans, lists comma-separated. */
export function text(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map(text).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export const ghs = (value: unknown): string =>
  typeof value === 'number' ? `GHS ${value.toFixed(2)}` : text(value);

function pick(record: Row, field: Field): string {
  return text(typeof field === 'function' ? field(record) : record[field]);
}

/** Every field of the record, labelled by its name with spaces for underscores. */
function allFields(records: Row[]): Fields {
  const fields: Fields = {};
  for (const record of records)
    for (const key of Object.keys(record)) fields[key.replace(/_/g, ' ')] = key;
  return fields;
}

const asRow = (value: unknown): Row =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : { value };

/** `label:  value` lines with the values aligned. */
export function block(record: unknown, fields?: Fields): string {
  const row = asRow(record);
  const entries = Object.entries(fields ?? allFields([row]));
  const width = Math.max(0, ...entries.map(([label]) => label.length + 1));
  return entries
    .map(
      ([label, field]) =>
        `${paint('bold', `${label}:`)}${' '.repeat(width - label.length - 1)}  ${pick(row, field)}`,
    )
    .join('\n');
}

/** A table with a header row; `empty` is printed instead when there are no rows. */
export function table(records: unknown[], fields?: Fields, empty = '(none)'): string {
  if (records.length === 0) return empty;
  const rows = records.map(asRow);
  const columns = Object.entries(fields ?? allFields(rows));
  const cells = [
    columns.map(([title]) => title.toUpperCase()),
    ...rows.map((row) => columns.map(([, field]) => pick(row, field))),
  ];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  const lines = cells.map((line) =>
    line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '),
  );
  return [paint('bold', lines[0]!), ...lines.slice(1)].join('\n');
}

/**
 * The fallback for commands without their own formatter: a list answer (`{things: [...], ...}`) as a table,
 * anything else as a block.
 */
export function auto(body: unknown): string {
  if (body === undefined || body === null) return 'done';
  if (Array.isArray(body)) return table(body);
  const row = asRow(body);
  const lists = Object.entries(row).filter(([, v]) => Array.isArray(v));
  if (lists.length === 1) {
    const [name, items] = lists[0]!;
    const rest = Object.entries(row).filter(([k]) => k !== name);
    const extra = rest.length > 0 ? `\n\n${block(Object.fromEntries(rest))}` : '';
    return table(items as unknown[], undefined, `(no ${name.replace(/_/g, ' ')})`) + extra;
  }
  return block(row);
}

/** A warning box for secrets that the server will never show again. */
export function shownOnce(what: string): string {
  return `\n\n${paint('yellow', `! The ${what} shown above cannot be retrieved again: store it now (e.g. in your secret manager).`)}`;
}
