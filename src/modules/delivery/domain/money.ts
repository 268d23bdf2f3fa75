/**
 * Money helpers. All fee and wallet logic works in integer pesewas
 * (1 GHS = 100 pesewas); GHS numbers exist only at the API edge.
 */

export const PESEWAS_PER_GHS = 100;

/**
 * Pesewas → GHS number with at most 2 decimals.
 * `p / 100` is a single correctly rounded IEEE division, so the result is the
 * same double a JSON parser would produce for the decimal text (1999 → 19.99).
 */
export function pesewasToGhs(p: number): number {
  if (!Number.isSafeInteger(p)) {
    throw new RangeError(`pesewasToGhs expects an integer number of pesewas, got ${p}`);
  }
  const ghs = p / PESEWAS_PER_GHS;
  return ghs === 0 ? 0 : ghs; // never emit -0
}

/**
 * GHS number → integer pesewas, or null when the value is not finite or has
 * more than 2 decimals (30.001) or would overflow a safe integer.
 *
 * `ghs * 100` is not exact (19.99 * 100 = 1998.9999999999998), so round and
 * then accept the value when either
 *  - it is exactly the double nearest to a 2-decimal number (r / 100 === ghs;
 *    covers large amounts whose product error exceeds the tolerance), or
 *  - the product is within a tiny tolerance of an integer (accepts values
 *    computed upstream, like 0.1 + 0.2, while 30.001 is 0.1 pesewa off).
 */
export function ghsToPesewas(ghs: number): number | null {
  if (typeof ghs !== 'number' || !Number.isFinite(ghs)) return null;
  const scaled = ghs * PESEWAS_PER_GHS;
  const r = Math.round(scaled);
  if (!Number.isSafeInteger(r)) return null;
  const exact = r / PESEWAS_PER_GHS === ghs;
  const close = Math.abs(scaled - r) < 1e-6;
  if (!exact && !close) return null;
  return r === 0 ? 0 : r;
}
