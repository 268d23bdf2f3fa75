import { describe, expect, it } from 'vitest';
import { earningJournal, occasionOf, payFor, payRuleProblems, PAY_LIMITS } from './pay.ts';

const NOW = new Date('2026-11-29T10:00:00Z');
const VEHICLES = ['motorbike', 'car', 'van'];
const rule = {
  zone: 'greater-accra',
  vehicle: 'motorbike',
  base_pesewas: 500,
  per_km_pesewas: 120,
  per_failed_attempt_pesewas: 250,
};

describe('pay rules', () => {
  it('accepts a rule within bounds, the default zone, a future start', () => {
    expect(payRuleProblems(rule, VEHICLES, NOW)).toEqual([]);
    expect(
      payRuleProblems(
        { ...rule, zone: 'default', effective_from: new Date('2026-12-01T00:00:00Z') },
        VEHICLES,
        NOW,
      ),
    ).toEqual([]);
  });

  it('names each problem: zone, vehicle, negative, fractional, huge amounts, a past start', () => {
    const problems = payRuleProblems(
      {
        zone: 'Greater Accra',
        vehicle: 'bicycle',
        base_pesewas: -1,
        per_km_pesewas: 1.5,
        per_failed_attempt_pesewas: PAY_LIMITS.per_failed_attempt_pesewas + 1,
        effective_from: new Date('2026-11-28T00:00:00Z'),
      },
      VEHICLES,
      NOW,
    );
    expect(problems.map((p) => p.field)).toEqual([
      'zone',
      'vehicle',
      'base_pesewas',
      'per_km_pesewas',
      'per_failed_attempt_pesewas',
      'effective_from',
    ]);
    expect(
      payRuleProblems(
        { ...rule, zone: 'a'.repeat(61), effective_from: new Date('x') },
        VEHICLES,
        NOW,
      ),
    ).toHaveLength(2);
  });

  it('pays a delivery its base plus the rate per road-km, rounded; a failed trip its flat rate', () => {
    expect(payFor(rule, 'delivered', 4.25)).toBe(500 + 510);
    expect(payFor(rule, 'delivered', 0.004)).toBe(500);
    expect(payFor(rule, 'delivered', Number.NaN)).toBe(500);
    expect(payFor(rule, 'failed_attempt:2', 10)).toBe(250);
  });

  it('names the occasion of a move: delivered, or the trip that failed', () => {
    expect(occasionOf({ to: 'delivered', attempts: 1, failedAttempt: false })).toBe('delivered');
    expect(occasionOf({ to: 'in_transit', attempts: 2, failedAttempt: true })).toBe(
      'failed_attempt:1',
    );
    expect(occasionOf({ to: 'returning', attempts: 2, failedAttempt: true })).toBe(
      'failed_attempt:2',
    );
    expect(occasionOf({ to: 'in_transit', attempts: 1, failedAttempt: false })).toBeUndefined();
  });

  it("books an earning as the platform's expense owed to the courier, balanced", () => {
    const j = earningJournal('cpe_1', 'cou_1', 1010);
    expect(j.entries).toEqual([
      { account: 'courier_pay', amountPesewas: -1010 },
      { account: 'courier_payable:cou_1', amountPesewas: 1010 },
    ]);
    expect(() => earningJournal('cpe_1', 'cou_1', 0)).toThrow();
  });
});
