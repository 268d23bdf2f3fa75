/** Output for humans (aligned blocks and tables) and scripts (`--json`). */
export interface Io {
  /** A line on stdout. */
  out: (text: string) => void;
  /** A line on stderr. */
  err: (text: string) => void;
  /** Redraws a progress line on stderr; present only when stderr is a terminal. */
  progress?: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

export const ghs = (n: number | undefined | null) =>
  typeof n === 'number' ? `GHS ${n.toFixed(2)}` : '-';

const cell = (v: unknown) => (v === undefined || v === null || v === '' ? '-' : String(v));

/** `label:  value` lines, labels padded to one column; undefined values are left out. */
export function block(rows: Array<[string, unknown]>): string {
  const kept = rows.filter(([, v]) => v !== undefined);
  const width = Math.max(0, ...kept.map(([k]) => k.length)) + 2;
  return kept.map(([k, v]) => `${`${k}:`.padEnd(width)} ${cell(v)}`).join('\n');
}

/** A plain-text table with a header row; columns as wide as their widest cell. */
export function table(headers: string[], rows: unknown[][]): string {
  const text = rows.map((r) => r.map(cell));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [line(headers.map((h) => h.toUpperCase())), ...text.map(line)].join('\n');
}

export const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A one-line progress bar redrawn in place on a terminal. */
export function progressBar(done: number, total: number, extra: string, width = 30): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${extra}`;
}
