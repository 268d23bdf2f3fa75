import { describe, expect, it } from 'vitest';
import { approvalReasons, cooling } from './approval.ts';

const rules = { approvalAbovePesewas: 500_000, coolingHours: 24 };
const now = Date.parse('2026-03-02T09:00:00Z');

describe('approvalReasons', () => {
  it('holds a payout above the approval amount, or to a destination changed within the cooling period', () => {
    expect(approvalReasons(500_000, new Date(now - 25 * 3_600_000), now, rules)).toEqual([]);
    expect(approvalReasons(500_001, new Date(now - 25 * 3_600_000), now, rules)).toEqual([
      'amount',
    ]);
    expect(approvalReasons(1000, new Date(now - 3_600_000), now, rules)).toEqual([
      'destination_changed',
    ]);
    expect(approvalReasons(600_000, new Date(now), now, rules)).toEqual([
      'amount',
      'destination_changed',
    ]);
  });

  it('cools for exactly the cooling period', () => {
    expect(cooling(new Date(now - 24 * 3_600_000 + 1), now, rules)).toBe(true);
    expect(cooling(new Date(now - 24 * 3_600_000), now, rules)).toBe(false);
  });
});
