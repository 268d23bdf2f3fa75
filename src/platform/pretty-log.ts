/**
 * Pino's JSON lines made readable for a person at a terminal: the time, the level, the message,
 * then the other fields as key=value, and an error's stack below. Small on purpose: the machine
 * form stays JSON, and this only reads it.
 */

const LEVELS: Record<number, readonly [name: string, colour: string]> = {
  10: ['TRACE', '90'],
  20: ['DEBUG', '36'],
  30: ['INFO ', '32'],
  40: ['WARN ', '33'],
  50: ['ERROR', '31'],
  60: ['FATAL', '35'],
};
/** Shown in the line's head, or not worth a person's attention at a terminal. */
const HEAD = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err']);

const value = (v: unknown): string =>
  typeof v === 'string'
    ? v === '' || /[\s"=]/.test(v)
      ? JSON.stringify(v)
      : v
    : JSON.stringify(v);

function stackOf(err: unknown): string {
  if (!err || typeof err !== 'object') return String(err);
  const e = err as { stack?: unknown; message?: unknown; cause?: unknown };
  const own = typeof e.stack === 'string' && e.stack !== '' ? e.stack : String(e.message);
  return e.cause === undefined ? own : `${own}\ncaused by: ${stackOf(e.cause)}`;
}

/** One JSON log line as a person reads it; a line that is not a JSON object is passed on as it is. */
export function prettyLine(line: string, colour: boolean): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return line;
  const paint = (code: string, text: string) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  const [level, code] = LEVELS[record.level as number] ?? [String(record.level), '0'];
  const time =
    typeof record.time === 'number' ? new Date(record.time).toTimeString().slice(0, 8) : '';
  const fields = Object.entries(record)
    .filter(([k]) => !HEAD.has(k))
    .map(([k, v]) => `${k}=${value(v)}`)
    .join(' ');
  const head = `${paint('2', time)} ${paint(code, level)} ${typeof record.msg === 'string' ? record.msg : ''}${fields ? `  ${paint('2', fields)}` : ''}`;
  const err = record.err === undefined ? '' : `\n${stackOf(record.err).replace(/^/gm, '    ')}`;
  return `${head}${err}\n`;
}
