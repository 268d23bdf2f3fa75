import { describe, expect, it } from 'vitest';
import { addDays, DAY_MS, isHoliday } from '../../../src/shared/ghana/index.ts';
import { serviceMondayAhead } from '../../helpers/service-days.ts';

const at = (iso: string) => Date.parse(iso);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('the test clocks’ Monday a few weeks ahead', () => {
  it('steps over a week with a public holiday (the run that met Boxing Day observed)', () => {
    // Three weeks from 1 December 2026 lands on Monday 28 December, Boxing Day observed.
    expect(new Date(serviceMondayAhead(21, at('2026-12-01T00:05:00Z'))).toISOString()).toBe(
      '2027-01-11T08:00:00.000Z',
    );
  });

  it('is a Monday 08:00, far enough ahead, in a week with no holiday, from any day of three years', () => {
    for (let t = at('2026-01-01T12:00:00Z'); t < at('2029-01-01T00:00:00Z'); t += DAY_MS) {
      const monday = serviceMondayAhead(21, t);
      const d = new Date(monday);
      expect([d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes()]).toEqual([1, 8, 0]);
      expect(monday - t).toBeGreaterThanOrEqual(21 * DAY_MS - 12 * 3_600_000);
      expect(monday - t).toBeLessThan(70 * DAY_MS);
      for (let n = 0; n < 5; n++) expect(isHoliday(addDays(day(monday), n))).toBe(false);
    }
  });
});
