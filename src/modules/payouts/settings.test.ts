import { describe, expect, it } from 'vitest';
import { payoutSettings } from './settings.ts';

describe('payoutSettings', () => {
  it('reads the defaults and the Accra cut-off, reporting bad values', () => {
    const problems: string[] = [];
    expect(payoutSettings({}, problems)).toMatchObject({
      holdHours: 24,
      sameDayHoldHours: 2,
      minimumPesewas: 1000,
      coolingHours: 24,
      cutoffMinutes: 960,
    });
    expect(payoutSettings({ PAYOUT_CUTOFF: '09:30' }, problems).cutoffMinutes).toBe(570);
    payoutSettings({ PAYOUT_CUTOFF: '25:00', PAYOUT_MINIMUM_PESEWAS: '0' }, problems);
    expect(problems).toHaveLength(2);
  });
});
