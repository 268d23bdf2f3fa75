/**
 * PostgreSQL array literals for flat array parameters, written in one pass.
 *
 * pg writes an array parameter by appending to a string element by element: a cons-string and two
 * regex replaces per element, the whole chain alive until the literal is sent. A payout run's set-based
 * batches pass arrays of thousands of elements per statement; pg's literals were a third of all a
 * 10,000-payee run allocated, and the chains, surviving young collections, grew V8's young generation
 * to its maximum, resident long after the run. Here an element is copied only when it must be quoted
 * and the literal is one `join`. Flat arrays of strings, numbers, bigints, booleans and nulls only;
 * anything else (dates, buffers, nested arrays, objects) is left to pg as before.
 */
/**
 * Whether PostgreSQL would read the element otherwise unquoted: it is empty, is NULL (any case), or
 * holds a brace, comma, quote, backslash or white space (array_in's: space, \t, \n, \v, \f, \r).
 * A scan of char codes: this runs for every element of every array parameter.
 */
function needsQuotes(s: string): boolean {
  if (s.length === 0 || (s.length === 4 && s.toLowerCase() === 'null')) return true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (
      c === 34 ||
      c === 44 ||
      c === 92 ||
      c === 123 ||
      c === 125 ||
      c === 32 ||
      (c >= 9 && c <= 13)
    )
      return true;
  }
  return false;
}

function element(v: unknown): string | undefined {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v !== 'string') return undefined;
  return needsQuotes(v) ? `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : v;
}

/** The array's literal, or undefined when it holds anything but strings, numbers, bigints, booleans and nulls. */
export function arrayLiteral(values: readonly unknown[]): string | undefined {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const e = element(values[i]);
    if (e === undefined) return undefined;
    parts[i] = e;
  }
  return `{${parts.join(',')}}`;
}

/** Statement parameters with their flat arrays already written as literals (the rest untouched, for pg). */
export function withArrayLiterals(params: readonly unknown[]): unknown[] {
  return params.map((p) => (Array.isArray(p) ? (arrayLiteral(p) ?? p) : p));
}
