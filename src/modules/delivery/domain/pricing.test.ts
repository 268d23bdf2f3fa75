import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { LatLng } from '../../../shared/ghana/geo.ts';
import {
  roadKm,
  DEFAULT_PRICING,
  PRIORITIES,
  feeForDistanceKm,
  isPriority,
  priceAllPriorities,
  priceFee,
  roundUpTo,
  validatePricingConfig,
} from './pricing.ts';
import type { PricingConfig } from './pricing.ts';

const ACCRA_CENTRAL = { lat: 5.549, lng: -0.205 };
const EAST_LEGON = { lat: 5.635, lng: -0.161 };
const ACCRA = { lat: 5.6037, lng: -0.187 };
const KUMASI = { lat: 6.6885, lng: -1.6244 };

const RAD = Math.PI / 180;
/** Point at `km` along the great circle from p with the given bearing (test helper). */
function destination(p: LatLng, bearingDeg: number, km: number): LatLng {
  const d = km / 6371.0088;
  const b = bearingDeg * RAD;
  const lat1 = p.lat * RAD;
  const lng1 = p.lng * RAD;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lng2 =
    lng1 +
    Math.atan2(
      Math.sin(b) * Math.sin(d) * Math.cos(lat1),
      Math.cos(d) - Math.sin(lat1) * Math.sin(lat2),
    );
  return { lat: lat2 / RAD, lng: lng2 / RAD };
}

const ghanaPoint = fc.record({
  lat: fc.double({ min: 4.8, max: 11, noNaN: true }),
  lng: fc.double({ min: -3.1, max: 1.1, noNaN: true }),
});
const priority = fc.constantFrom(...PRIORITIES);

afterEach(() => vi.useRealTimers());

describe('priceFee: known figures with DEFAULT_PRICING', () => {
  it('Accra Central → East Legon (~10.7 km)', () => {
    // 1000 + 250 × 10.731 × 1.3 = 4487.6 → rounded up to GHS 45.00
    expect(priceFee(ACCRA_CENTRAL, EAST_LEGON, 'standard')).toBe(4500);
    expect(priceFee(ACCRA_CENTRAL, EAST_LEGON, 'economy')).toBe(3600);
    expect(priceFee(ACCRA_CENTRAL, EAST_LEGON, 'cargo')).toBe(8100);
  });

  it('Accra → Kumasi (~199.5 km)', () => {
    // 1000 + 250 × 199.506 × 1.3 = 65839.6 → GHS 658.50
    expect(priceFee(ACCRA, KUMASI, 'standard')).toBe(65850);
    expect(priceFee(ACCRA, KUMASI, 'economy')).toBe(52700);
    expect(priceFee(ACCRA, KUMASI, 'cargo')).toBe(118550);
  });

  it('charges the minimum for a zero-distance delivery', () => {
    expect(priceFee(ACCRA, ACCRA, 'standard')).toBe(1500);
    expect(priceFee(ACCRA, ACCRA, 'economy')).toBe(1200);
    expect(priceFee(ACCRA, ACCRA, 'cargo')).toBe(2700);
  });

  it('orders priorities economy < standard < cargo', () => {
    const [standard, economy, cargo] = priceAllPriorities(ACCRA_CENTRAL, EAST_LEGON).map(
      (o) => o.feePesewas,
    );
    expect(economy!).toBeLessThan(standard!);
    expect(standard!).toBeLessThan(cargo!);
  });
});

describe('priceFee: properties', () => {
  it('never decreases as distance grows (along any bearing)', () => {
    fc.assert(
      fc.property(
        ghanaPoint,
        fc.double({ min: 0, max: 360, noNaN: true }),
        fc.double({ min: 0, max: 700, noNaN: true }),
        fc.double({ min: 0, max: 700, noNaN: true }),
        (pickup, bearing, d1, d2) => {
          const [near, far] = d1 <= d2 ? [d1, d2] : [d2, d1];
          for (const pr of PRIORITIES) {
            expect(priceFee(pickup, destination(pickup, bearing, near), pr)).toBeLessThanOrEqual(
              priceFee(pickup, destination(pickup, bearing, far), pr),
            );
          }
        },
      ),
    );
  });

  it('never decreases with distance for any valid config', () => {
    const perPriority = fc.record({
      standard: fc.integer({ min: 0, max: 100_000 }),
      economy: fc.integer({ min: 0, max: 100_000 }),
      cargo: fc.integer({ min: 0, max: 100_000 }),
    });
    const config: fc.Arbitrary<PricingConfig> = fc.record({
      basePesewas: perPriority,
      perKmPesewas: perPriority,
      minimumPesewas: perPriority,
      roadFactor: fc.double({ min: 1, max: 3, noNaN: true }),
      roundingPesewas: fc.integer({ min: 1, max: 1000 }),
    });
    fc.assert(
      fc.property(
        config,
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        priority,
        (c, a, b, pr) => {
          validatePricingConfig(c);
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          expect(feeForDistanceKm(lo, pr, c)).toBeLessThanOrEqual(feeForDistanceKm(hi, pr, c));
        },
      ),
    );
  });

  it('is always a multiple of the rounding unit and at least the minimum', () => {
    fc.assert(
      fc.property(ghanaPoint, ghanaPoint, priority, (a, b, pr) => {
        const fee = priceFee(a, b, pr);
        expect(Number.isSafeInteger(fee)).toBe(true);
        expect(fee % DEFAULT_PRICING.roundingPesewas).toBe(0);
        expect(fee).toBeGreaterThanOrEqual(DEFAULT_PRICING.minimumPesewas[pr]);
      }),
    );
  });

  it('depends only on the coordinates and the priority', () => {
    fc.assert(
      fc.property(
        ghanaPoint,
        ghanaPoint,
        priority,
        fc.integer({ min: 0, max: 4e12 }),
        (a, b, pr, clock) => {
          const first = priceFee(a, b, pr);
          vi.useFakeTimers();
          vi.setSystemTime(clock);
          // Same inputs (fresh objects, any clock, other calls in between) give the same fee.
          priceFee(b, ACCRA, 'cargo');
          expect(priceFee({ lat: a.lat, lng: a.lng }, { lat: b.lat, lng: b.lng }, pr)).toBe(first);
          vi.useRealTimers();
          // Direction does not matter either.
          expect(priceFee(b, a, pr)).toBe(first);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('rejects invalid coordinates and priorities', () => {
    expect(() => priceFee({ lat: Number.NaN, lng: 0 }, ACCRA, 'standard')).toThrow(RangeError);
    expect(() => priceFee(ACCRA, { lat: 5, lng: 200 }, 'standard')).toThrow(RangeError);
    expect(() => priceFee(ACCRA, KUMASI, 'express' as never)).toThrow(RangeError);
    expect(() => feeForDistanceKm(-1, 'standard')).toThrow(RangeError);
  });
});

describe('roundUpTo', () => {
  it('rounds up to the unit and ignores float noise', () => {
    expect(roundUpTo(4487.6, 50)).toBe(4500);
    expect(roundUpTo(4500, 50)).toBe(4500);
    expect(roundUpTo(4500.000000001, 50)).toBe(4500);
    expect(roundUpTo(4500.01, 50)).toBe(4550);
    expect(roundUpTo(0, 50)).toBe(0);
    expect(roundUpTo(1, 1)).toBe(1);
  });
});

describe('validatePricingConfig', () => {
  const clone = (): PricingConfig => structuredClone({ ...DEFAULT_PRICING }) as PricingConfig;

  it('accepts the defaults', () => {
    expect(validatePricingConfig(DEFAULT_PRICING)).toBe(DEFAULT_PRICING);
  });

  it.each<[string, (c: PricingConfig) => void, RegExp]>([
    ['negative base', (c) => (c.basePesewas.standard = -1), /basePesewas\.standard/],
    ['fractional per-km', (c) => (c.perKmPesewas.cargo = 2.5), /perKmPesewas\.cargo/],
    [
      'missing minimum',
      (c) => delete (c.minimumPesewas as Partial<Record<string, number>>).economy,
      /minimumPesewas\.economy/,
    ],
    ['road factor below 1', (c) => (c.roadFactor = 0.9), /roadFactor/],
    ['NaN road factor', (c) => (c.roadFactor = Number.NaN), /roadFactor/],
    ['zero rounding', (c) => (c.roundingPesewas = 0), /roundingPesewas/],
    ['fractional rounding', (c) => (c.roundingPesewas = 0.5), /roundingPesewas/],
  ])('rejects %s', (_name, mutate, message) => {
    const c = clone();
    mutate(c);
    expect(() => validatePricingConfig(c)).toThrow(message);
  });

  it('rejects a missing table', () => {
    const c = clone() as Partial<PricingConfig>;
    delete c.perKmPesewas;
    expect(() => validatePricingConfig(c as PricingConfig)).toThrow(/perKmPesewas/);
  });
});

describe('isPriority', () => {
  it('knows the three priorities', () => {
    expect(PRIORITIES).toEqual(['standard', 'economy', 'cargo']);
    expect(isPriority('economy')).toBe(true);
    expect(isPriority('express')).toBe(false);
    expect(isPriority(undefined)).toBe(false);
  });
});

describe('roadKm', () => {
  it('is the straight-line distance times the road factor, as fees reckon it', () => {
    const a = { lat: 5.6, lng: -0.2 };
    const b = { lat: 5.7, lng: -0.2 };
    expect(roadKm(a, b, { ...DEFAULT_PRICING, roadFactor: 2 })).toBeCloseTo(
      2 * roadKm(a, b, { ...DEFAULT_PRICING, roadFactor: 1 }),
      9,
    );
    expect(roadKm(a, b, { ...DEFAULT_PRICING, roadFactor: 1 })).toBeCloseTo(11.12, 1);
  });
});
