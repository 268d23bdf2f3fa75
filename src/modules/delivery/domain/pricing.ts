/**
 * Delivery fee (design: Pricing). A fee depends only on the two coordinates and
 * the priority: no dates, no location ids, no client amounts. Pesewas only.
 *
 *   fee = roundUp(max(minimum, base + perKm × haversineKm × roadFactor), rounding)
 */
import { haversineKm, isValidLatLng } from '../../../shared/ghana/geo.ts';
import type { LatLng } from '../../../shared/ghana/geo.ts';

export type Priority = 'standard' | 'economy' | 'cargo';

export const PRIORITIES: readonly Priority[] = ['standard', 'economy', 'cargo'];

export function isPriority(v: unknown): v is Priority {
  return typeof v === 'string' && (PRIORITIES as readonly string[]).includes(v);
}

export interface PricingConfig {
  /** Flat part of the fee, pesewas. */
  basePesewas: Record<Priority, number>;
  /** Per road-km, pesewas. */
  perKmPesewas: Record<Priority, number>;
  /** Floor applied before rounding, pesewas. */
  minimumPesewas: Record<Priority, number>;
  /** Straight-line km × roadFactor ≈ road km (Ghana roads wind; 1.3 is typical). */
  roadFactor: number;
  /** Fees are rounded UP to a multiple of this, pesewas (50 = GHS 0.50). */
  roundingPesewas: number;
}

/**
 * Documented defaults. Standard: GHS 10.00 + GHS 2.50 per road-km, at least
 * GHS 15.00. Economy ≈ 0.8× standard, cargo ≈ 1.8× standard.
 */
export const DEFAULT_PRICING: Readonly<PricingConfig> = Object.freeze({
  basePesewas: Object.freeze({ standard: 1000, economy: 800, cargo: 1800 }),
  perKmPesewas: Object.freeze({ standard: 250, economy: 200, cargo: 450 }),
  minimumPesewas: Object.freeze({ standard: 1500, economy: 1200, cargo: 2700 }),
  roadFactor: 1.3,
  roundingPesewas: 50,
});

/**
 * Float noise guard for the rounding step: 4550.000000001 must round to 4550,
 * not 4600. A billionth of a rounding unit is far below one pesewa.
 */
const ROUNDING_EPSILON = 1e-9;

function isNonNegativeInt(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

/** Throws an Error naming the first nonsensical setting; returns the config otherwise. */
export function validatePricingConfig(c: PricingConfig): PricingConfig {
  if (typeof c !== 'object' || c === null) throw new Error('pricing config must be an object');
  for (const table of ['basePesewas', 'perKmPesewas', 'minimumPesewas'] as const) {
    const rec = c[table];
    if (typeof rec !== 'object' || rec === null) {
      throw new Error(
        `pricing config: ${table} must be an object with standard, economy and cargo`,
      );
    }
    for (const p of PRIORITIES) {
      const v = rec[p];
      if (!isNonNegativeInt(v)) {
        throw new Error(
          `pricing config: ${table}.${p} must be a non-negative integer number of pesewas, got ${String(v)}`,
        );
      }
    }
  }
  if (typeof c.roadFactor !== 'number' || !Number.isFinite(c.roadFactor) || c.roadFactor < 1) {
    throw new Error(
      `pricing config: roadFactor must be a finite number >= 1, got ${String(c.roadFactor)}`,
    );
  }
  if (!isNonNegativeInt(c.roundingPesewas) || c.roundingPesewas < 1) {
    throw new Error(
      `pricing config: roundingPesewas must be a positive integer, got ${String(c.roundingPesewas)}`,
    );
  }
  return c;
}

/** Round a non-negative pesewa amount up to the next multiple of `unit`. */
export function roundUpTo(amount: number, unit: number): number {
  const units = Math.ceil(amount / unit - ROUNDING_EPSILON);
  return Math.max(0, units) * unit;
}

/** Fee for a straight-line distance in km. Non-decreasing in km by construction. */
export function feeForDistanceKm(
  km: number,
  priority: Priority,
  config: PricingConfig = DEFAULT_PRICING,
): number {
  if (!Number.isFinite(km) || km < 0)
    throw new RangeError(`distance must be a finite number >= 0, got ${km}`);
  if (!isPriority(priority)) throw new RangeError(`unknown priority: ${String(priority)}`);
  const raw = config.basePesewas[priority] + config.perKmPesewas[priority] * km * config.roadFactor;
  return roundUpTo(Math.max(config.minimumPesewas[priority], raw), config.roundingPesewas);
}

/** The road distance pricing assumes between two points: straight-line km × the road factor. */
export function roadKm(pickup: LatLng, dropoff: LatLng, config: PricingConfig): number {
  return haversineKm(pickup, dropoff) * config.roadFactor;
}

/** Delivery fee in pesewas between two points. Callers check isInGhana first. */
export function priceFee(
  pickup: LatLng,
  dropoff: LatLng,
  priority: Priority,
  config: PricingConfig = DEFAULT_PRICING,
): number {
  if (!isValidLatLng(pickup) || !isValidLatLng(dropoff)) {
    throw new RangeError('pickup and dropoff must be valid coordinates');
  }
  return feeForDistanceKm(haversineKm(pickup, dropoff), priority, config);
}

/** Fee for every priority, in PRIORITIES order (for estimate's available_options). */
export function priceAllPriorities(
  pickup: LatLng,
  dropoff: LatLng,
  config: PricingConfig = DEFAULT_PRICING,
): Array<{ priority: Priority; feePesewas: number }> {
  return PRIORITIES.map((priority) => ({
    priority,
    feePesewas: priceFee(pickup, dropoff, priority, config),
  }));
}

/**
 * The delivery fee orders.create charges, in pesewas: always priority standard. estimate's
 * standard price is this same number, so a quote and the charge can never drift apart.
 * Callers check that both points are in Ghana first.
 */
export function feeFor(pickup: LatLng, dropoff: LatLng, pricing: PricingConfig): number {
  return priceFee(pickup, dropoff, 'standard', pricing);
}
