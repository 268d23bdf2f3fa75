/**
 * Pure money rules of the safe-catalog: commission rates, the commission of a subtotal, and the
 * settlement decomposition. Everything is integer pesewas; the API speaks GHS.
 */

/** Basis points in a whole rate (1.0 = 100%). */
export const BPS_PER_UNIT = 10_000;

/**
 * A commission rate from 0 to 1 with at most 4 decimals (0.1234 = 12.34%) as basis points, or null.
 * Read from the number's shortest decimal text, like ghsToPesewas, so 0.07 is 700, not 699.
 */
export function rateToBps(rate: number): number | null {
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0 || rate > 1) return null;
  const text = rate.toString();
  if (/e/i.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > 4) return null;
  return Number(whole) * BPS_PER_UNIT + Number(fraction.padEnd(4, '0'));
}

export const bpsToRate = (bps: number): number => bps / BPS_PER_UNIT;

/**
 * The platform's commission on a subtotal, rounded half up to a whole pesewa (GHS 10.05 at 12.5%
 * is 125.625 pesewas → 126). BigInt keeps subtotal × bps exact beyond 2^53. The vendor gets the
 * rest, so rounding never unbalances a settlement: it only decides which side gets the odd pesewa.
 */
export function commissionOf(subtotalPesewas: number, bps: number): number {
  if (!Number.isSafeInteger(subtotalPesewas) || subtotalPesewas < 0)
    throw new RangeError(`subtotal must be whole pesewas >= 0, got ${subtotalPesewas}`);
  if (!Number.isInteger(bps) || bps < 0 || bps > BPS_PER_UNIT)
    throw new RangeError(`commission must be 0..${BPS_PER_UNIT} bps, got ${bps}`);
  const scaled = BigInt(subtotalPesewas) * BigInt(bps);
  return Number((scaled * 2n + BigInt(BPS_PER_UNIT)) / BigInt(2 * BPS_PER_UNIT));
}

export interface SaleMoney {
  subtotal: number;
  commission: number;
  deliveryFee: number;
  markup: number;
}

export interface Decomposition {
  /** What the buyer pays: subtotal + delivery fee + markup. */
  buyerPays: number;
  vendorPayable: number;
  commission: number;
  deliveryRevenue: number;
  partnerMarkup: number;
}

/** The safe-catalog orders design's decomposition: buyerPays = vendorPayable + commission + deliveryRevenue + partnerMarkup, always. */
export function decompose(m: SaleMoney): Decomposition {
  for (const [name, v] of Object.entries(m)) {
    if (!Number.isSafeInteger(v) || v < 0)
      throw new RangeError(`${name} must be whole pesewas >= 0, got ${v}`);
  }
  if (m.commission > m.subtotal) throw new RangeError('commission cannot exceed the subtotal');
  return {
    buyerPays: m.subtotal + m.deliveryFee + m.markup,
    vendorPayable: m.subtotal - m.commission,
    commission: m.commission,
    deliveryRevenue: m.deliveryFee,
    partnerMarkup: m.markup,
  };
}
