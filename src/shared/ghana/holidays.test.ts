import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HOLIDAYS,
  addDays,
  easterSunday,
  farmersDay,
  ghanaPublicHolidays,
  holidayName,
  isHoliday,
  isIsoDate,
  isSaturday,
  isSunday,
  toDayNumber,
  weekday,
} from './holidays.ts';

describe('date helpers', () => {
  it('validates YYYY-MM-DD dates', () => {
    expect(isIsoDate('2025-06-02')).toBe(true);
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2025-02-29')).toBe(false);
    expect(isIsoDate('2025-13-01')).toBe(false);
    expect(isIsoDate('2025-6-2')).toBe(false);
    expect(isIsoDate('2025-06-02T10:00:00Z')).toBe(false);
    expect(isIsoDate(20250602)).toBe(false);
  });

  it('adds days across months and years', () => {
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(() => addDays('nope', 1)).toThrow(RangeError);
  });

  it('knows Sundays and Saturdays', () => {
    expect(isSunday('2025-06-08')).toBe(true);
    expect(isSunday('2025-06-07')).toBe(false);
    expect(isSaturday('2025-06-07')).toBe(true);
  });

  it('answers as the calendar does over more dates than it memoises, before 1970 too', () => {
    // 12,000 days from 1960: past the memo's bound (it empties and starts again), every answer
    // is still the one Date gives.
    const first = Date.UTC(1960, 0, 1);
    for (let i = 0; i < 12_000; i++) {
      const at = new Date(first + i * 86_400_000);
      const date = at.toISOString().slice(0, 10);
      expect(toDayNumber(date)).toBe(at.getTime() / 86_400_000);
      expect(weekday(date)).toBe(at.getUTCDay());
      expect(addDays(date, 1)).toBe(new Date(at.getTime() + 86_400_000).toISOString().slice(0, 10));
    }
    // An invalid date is refused every time, never remembered as valid.
    expect(isIsoDate('2025-02-29')).toBe(false);
    expect(isIsoDate('2025-02-29')).toBe(false);
  });
});

describe('easterSunday', () => {
  it.each([
    [2019, '2019-04-21'],
    [2024, '2024-03-31'],
    [2025, '2025-04-20'],
    [2026, '2026-04-05'],
    [2027, '2027-03-28'],
    [2038, '2038-04-25'],
  ])('%i → %s', (year, date) => {
    expect(easterSunday(year)).toBe(date);
  });
});

describe('moving holidays', () => {
  it('Good Friday and Easter Monday follow Easter', () => {
    expect(holidayName('2025-04-18')).toBe('Good Friday');
    expect(holidayName('2025-04-21')).toBe('Easter Monday');
    expect(isHoliday('2026-04-03')).toBe(true);
    expect(isHoliday('2026-04-06')).toBe(true);
    expect(isHoliday('2027-03-26')).toBe(true);
    expect(isHoliday('2027-03-29')).toBe(true);
    expect(isHoliday('2025-04-19')).toBe(false); // Holy Saturday is a working day
  });

  it("Farmers' Day is the first Friday of December", () => {
    expect(farmersDay(2024)).toBe('2024-12-06');
    expect(farmersDay(2025)).toBe('2025-12-05');
    expect(farmersDay(2026)).toBe('2026-12-04');
    expect(farmersDay(2027)).toBe('2027-12-03');
    expect(farmersDay(2028)).toBe('2028-12-01'); // Dec 1 itself is a Friday
    expect(holidayName('2025-12-05')).toBe("Farmers' Day");
    expect(isHoliday('2025-12-12')).toBe(false);
  });
});

describe('fixed holidays and the 2019 / 2025 amendments', () => {
  it('has the fixed statutory days', () => {
    for (const d of [
      '2026-01-01',
      '2026-01-07',
      '2026-03-06',
      '2026-05-01',
      '2026-09-21',
      '2026-12-25',
    ]) {
      expect(isHoliday(d), d).toBe(true);
    }
  });

  it('Republic Day (Jul 1) is a holiday again from 2025, not in 2019-2024', () => {
    expect(isHoliday('2024-07-01')).toBe(false);
    expect(holidayName('2025-07-01')).toBe('Republic Day');
    expect(isHoliday('2026-07-01')).toBe(true);
  });

  it("Aug 4 Founders' Day was a holiday 2019-2024 and is dropped from 2025", () => {
    expect(isHoliday('2023-08-04')).toBe(true);
    expect(isHoliday('2025-08-04')).toBe(false);
    expect(isHoliday('2026-08-04')).toBe(false);
  });

  it('moves a weekend holiday to the next free weekday', () => {
    // 2024-08-04 and 2025-09-21 were Sundays, 2027-03-06 is a Saturday.
    expect(holidayName('2024-08-05')).toBe("Founders' Day (observed)");
    expect(isHoliday('2025-09-22')).toBe(true);
    expect(isHoliday('2027-03-08')).toBe(true);
    // Sat 25 + Sun 26 Dec 2027 → Mon 27 + Tue 28.
    expect(isHoliday('2027-12-27')).toBe(true);
    expect(isHoliday('2027-12-28')).toBe(true);
    expect(isHoliday('2027-12-29')).toBe(false);
    // 2026-12-26 is a Saturday → Monday 28.
    expect(isHoliday('2026-12-28')).toBe(true);
  });

  it('takes Eid and declared days from configuration', () => {
    expect(isHoliday('2025-03-31')).toBe(true);
    expect(isHoliday('2025-06-06')).toBe(true);
    const noEid = { eidDates: [], extraHolidays: [] };
    expect(isHoliday('2025-03-31', noEid)).toBe(false);
    expect(isHoliday('2025-10-15', { ...DEFAULT_HOLIDAYS, extraHolidays: ['2025-10-15'] })).toBe(
      true,
    );
  });

  it('lists a year sorted without duplicates', () => {
    const list = ghanaPublicHolidays(2025);
    const dates = list.map((h) => h.date);
    expect(dates).toEqual([...dates].sort());
    expect(new Set(dates).size).toBe(dates.length);
    expect(dates).toEqual([
      '2025-01-01',
      '2025-01-07',
      '2025-03-06',
      '2025-03-31',
      '2025-04-18',
      '2025-04-21',
      '2025-05-01',
      '2025-06-06',
      '2025-07-01',
      '2025-09-21',
      '2025-09-22',
      '2025-12-05',
      '2025-12-25',
      '2025-12-26',
    ]);
  });

  it('rejects malformed dates', () => {
    expect(() => isHoliday('2025/01/01')).toThrow(RangeError);
  });
});
