/** Integer pesewas to a GHS number with at most two decimals (exact for safe integers). */
export function pesewasToGhs(pesewas: number): number {
  if (!Number.isSafeInteger(pesewas))
    throw new RangeError(`pesewas must be a safe integer, got ${pesewas}`);
  // One correctly rounded division gives the same double JSON would parse from the decimal text.
  const ghs = pesewas / 100;
  return ghs === 0 ? 0 : ghs; // never -0
}

/**
 * A GHS amount as integer pesewas, or null when it is not a finite amount with at most two
 * decimals. Works from the shortest decimal text of the number, so 19.99 is 1999, not 1998.
 */
export function ghsToPesewas(ghs: number): number | null {
  if (typeof ghs !== 'number' || !Number.isFinite(ghs)) return null;
  const text = Math.abs(ghs).toString();
  if (/e/i.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > 2) return null;
  const pesewas = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(pesewas)) return null;
  return ghs < 0 ? -pesewas : pesewas;
}

/** Integer pesewas as people read an amount: `GHS 1234.50` (exact, from the integer, for any safe integer). */
export function formatGhs(pesewas: number): string {
  if (!Number.isSafeInteger(pesewas))
    throw new RangeError(`pesewas must be a safe integer, got ${pesewas}`);
  const abs = Math.abs(pesewas);
  return `GHS ${pesewas < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The `*_ghs` twin of each `*_pesewas` key of T (null stays null). */
export type GhsTwins<T> = {
  [K in keyof T as K extends `${infer Base}_pesewas` ? `${Base}_ghs` : never]: T[K] extends number
    ? number
    : T[K] extends number | null
      ? number | null
      : never;
};

/**
 * An object whose amounts are integer pesewas, with each `x_pesewas` (a number or null) also as
 * `x_ghs` in the GHS numbers the rest of the API speaks: additive, the pesewas keys stay as they were.
 */
export function withGhs<T extends object>(o: T): T & GhsTwins<T> {
  const twins: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(o)) {
    if (!key.endsWith('_pesewas') || (typeof value !== 'number' && value !== null)) continue;
    twins[`${key.slice(0, -'_pesewas'.length)}_ghs`] = value === null ? null : pesewasToGhs(value);
  }
  return { ...o, ...twins } as T & GhsTwins<T>;
}
