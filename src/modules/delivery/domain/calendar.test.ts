import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ACCRA_UTC_OFFSET_MINUTES,
  DEFAULT_CALENDAR,
  accraDate,
  isDeliveryDay,
  nextDeliveryDay,
  planWindows,
  validateCalendarConfig,
} from './calendar.ts';
import { isHoliday, isSunday } from '../../../shared/ghana/index.ts';
import type { CalendarConfig } from './calendar.ts';
import { PRIORITIES } from './pricing.ts';

const at = (iso: string) => new Date(iso);

describe('Accra time', () => {
  it('is UTC+0 all year', () => {
    expect(ACCRA_UTC_OFFSET_MINUTES).toBe(0);
    // Cross-check with the IANA zone when the runtime has it.
    const fmt = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Africa/Accra',
      dateStyle: 'short',
      timeStyle: 'short',
      hourCycle: 'h23',
    });
    expect(fmt.format(at('2025-01-15T23:30:00Z'))).toBe('2025-01-15, 23:30');
    expect(fmt.format(at('2025-07-15T23:30:00Z'))).toBe('2025-07-15, 23:30');
    expect(accraDate(at('2025-07-15T23:59:59Z'))).toBe('2025-07-15');
  });
});

describe('delivery days', () => {
  it('excludes Sundays and holidays, keeps Saturdays', () => {
    expect(isDeliveryDay('2025-06-07')).toBe(true); // Saturday
    expect(isDeliveryDay('2025-06-08')).toBe(false); // Sunday
    expect(isDeliveryDay('2025-12-25')).toBe(false);
    expect(isDeliveryDay('2025-06-02')).toBe(true);
  });

  it('finds the next delivery day', () => {
    expect(nextDeliveryDay('2025-06-08')).toBe('2025-06-09');
    expect(nextDeliveryDay('2025-06-07')).toBe('2025-06-07');
    expect(nextDeliveryDay('2025-06-07', DEFAULT_CALENDAR, true)).toBe('2025-06-09');
    // Good Friday 2026-04-03 → Saturday 4th; Easter Monday 6th → Tuesday 7th.
    expect(nextDeliveryDay('2026-04-03')).toBe('2026-04-04');
    expect(nextDeliveryDay('2026-04-05')).toBe('2026-04-07');
  });

  it('fails loudly when configuration leaves no delivery day', () => {
    const days = Array.from({ length: 400 }, (_, i) =>
      new Date(Date.UTC(2030, 0, 1 + i)).toISOString().slice(0, 10),
    );
    const cfg = { ...DEFAULT_CALENDAR, extraHolidays: days };
    expect(() => nextDeliveryDay('2030-01-01', cfg)).toThrow(/no delivery day/);
  });
});

describe('planWindows', () => {
  it('standard before the cut-off: same day within a few hours', () => {
    const plan = planWindows(at('2025-06-02T10:07:30Z'), undefined, 'standard');
    expect(plan).toEqual({
      pickupDate: '2025-06-02',
      deliveryDate: '2025-06-02',
      pickupWindow: { earliest: '2025-06-02T10:15:00.000Z', latest: '2025-06-02T12:15:00.000Z' },
      deliveryWindow: { earliest: '2025-06-02T11:15:00.000Z', latest: '2025-06-02T14:15:00.000Z' },
      estimatedDelivery: '2025-06-02T14:15:00.000Z',
      weekendDelivery: false,
      holidayDelivery: false,
    });
  });

  it('before opening time starts at opening', () => {
    const plan = planWindows(at('2025-06-02T06:30:00Z'), undefined, 'standard');
    expect(plan.pickupWindow.earliest).toBe('2025-06-02T08:00:00.000Z');
  });

  it('one minute before the cut-off is still same day', () => {
    const plan = planWindows(at('2025-06-02T14:59:00Z'), undefined, 'standard');
    expect(plan.pickupDate).toBe('2025-06-02');
    expect(plan.deliveryWindow).toEqual({
      earliest: '2025-06-02T16:00:00.000Z',
      latest: '2025-06-02T19:00:00.000Z',
    });
  });

  it('at or after the cut-off moves to the next delivery day', () => {
    for (const t of ['2025-06-02T15:00:00Z', '2025-06-02T19:30:00Z', '2025-06-02T23:59:59Z']) {
      const plan = planWindows(at(t), undefined, 'standard');
      expect(plan.pickupDate, t).toBe('2025-06-03');
      expect(plan.pickupWindow.earliest).toBe('2025-06-03T08:00:00.000Z');
      expect(plan.deliveryWindow).toEqual({
        earliest: '2025-06-03T09:00:00.000Z',
        latest: '2025-06-03T12:00:00.000Z',
      });
    }
  });

  it('delivers on Saturdays and flags them', () => {
    const plan = planWindows(at('2025-06-07T10:00:00Z'), undefined, 'standard');
    expect(plan.deliveryDate).toBe('2025-06-07');
    expect(plan.weekendDelivery).toBe(true);
  });

  it('skips Sundays', () => {
    expect(planWindows(at('2025-06-07T16:00:00Z'), undefined, 'standard').pickupDate).toBe(
      '2025-06-09',
    );
    expect(planWindows(at('2025-06-08T09:00:00Z'), undefined, 'standard').pickupDate).toBe(
      '2025-06-09',
    );
  });

  it('skips holidays', () => {
    // Christmas Eve after the cut-off: 25th and 26th are holidays, 27th is a Saturday.
    const plan = planWindows(at('2025-12-24T16:00:00Z'), undefined, 'standard');
    expect(plan.pickupDate).toBe('2025-12-27');
    expect(plan.weekendDelivery).toBe(true);
    expect(plan.holidayDelivery).toBe(false);
    // Ordered on Farmers' Day morning: nothing until Saturday.
    expect(planWindows(at('2025-12-05T09:00:00Z'), undefined, 'standard').pickupDate).toBe(
      '2025-12-06',
    );
  });

  it('economy is delivered on the next delivery day', () => {
    const plan = planWindows(at('2025-06-02T10:00:00Z'), undefined, 'economy');
    expect(plan.pickupDate).toBe('2025-06-02');
    expect(plan.deliveryDate).toBe('2025-06-03');
    expect(plan.deliveryWindow).toEqual({
      earliest: '2025-06-03T08:00:00.000Z',
      latest: '2025-06-03T20:00:00.000Z',
    });
    expect(plan.estimatedDelivery).toBe('2025-06-03T20:00:00.000Z');
    // Thursday before Farmers' Day → delivered Saturday.
    expect(planWindows(at('2025-12-04T10:00:00Z'), undefined, 'economy').deliveryDate).toBe(
      '2025-12-06',
    );
  });

  it('cargo is same day before the cut-off but in a later window', () => {
    const morning = planWindows(at('2025-06-02T10:07:00Z'), undefined, 'cargo');
    expect(morning.deliveryDate).toBe('2025-06-02');
    expect(morning.deliveryWindow).toEqual({
      earliest: '2025-06-02T13:15:00.000Z',
      latest: '2025-06-02T17:15:00.000Z',
    });
    const standard = planWindows(at('2025-06-02T10:07:00Z'), undefined, 'standard');
    expect(morning.deliveryWindow.earliest > standard.deliveryWindow.earliest).toBe(true);
    // Late orders are clamped to closing time.
    const late = planWindows(at('2025-06-02T14:00:00Z'), undefined, 'cargo');
    expect(late.deliveryWindow).toEqual({
      earliest: '2025-06-02T17:00:00.000Z',
      latest: '2025-06-02T20:00:00.000Z',
    });
  });

  it('honours a future requested date from opening time', () => {
    const plan = planWindows(at('2025-06-02T10:00:00Z'), '2025-06-05', 'standard');
    expect(plan.pickupDate).toBe('2025-06-05');
    expect(plan.pickupWindow.earliest).toBe('2025-06-05T08:00:00.000Z');
    expect(plan.deliveryWindow.latest).toBe('2025-06-05T12:00:00.000Z');
  });

  it('moves a requested Sunday or holiday to the next delivery day', () => {
    expect(planWindows(at('2025-06-02T10:00:00Z'), '2025-06-08', 'standard').pickupDate).toBe(
      '2025-06-09',
    );
    expect(planWindows(at('2026-03-30T10:00:00Z'), '2026-04-03', 'standard').pickupDate).toBe(
      '2026-04-04',
    );
    expect(planWindows(at('2025-06-02T10:00:00Z'), '2025-12-25', 'economy')).toMatchObject({
      pickupDate: '2025-12-27',
      deliveryDate: '2025-12-29',
    });
  });

  it('treats a past or same-day requested date as today', () => {
    const now = at('2025-06-02T10:07:30Z');
    const plain = planWindows(now, undefined, 'standard');
    expect(planWindows(now, '2025-05-01', 'standard')).toEqual(plain);
    expect(planWindows(now, '2025-06-02', 'standard')).toEqual(plain);
    expect(planWindows(at('2025-06-02T16:00:00Z'), '2025-06-02', 'standard').pickupDate).toBe(
      '2025-06-03',
    );
  });

  it('rejects malformed input', () => {
    expect(() => planWindows(at('2025-06-02T10:00:00Z'), '2025-02-30', 'standard')).toThrow(
      RangeError,
    );
    expect(() => planWindows(new Date(Number.NaN), undefined, 'standard')).toThrow(RangeError);
    expect(() => planWindows(at('2025-06-02T10:00:00Z'), undefined, 'express' as never)).toThrow(
      RangeError,
    );
  });

  it('always plans coherent windows on delivery days', () => {
    const instant = fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2027, 11, 31) });
    const requested = fc.option(fc.integer({ min: -10, max: 60 }), { nil: undefined });
    fc.assert(
      fc.property(instant, requested, fc.constantFrom(...PRIORITIES), (ms, offsetDays, pr) => {
        const now = new Date(ms);
        const req =
          offsetDays === undefined
            ? undefined
            : new Date(ms + offsetDays * 86_400_000).toISOString().slice(0, 10);
        const p = planWindows(now, req, pr);
        expect(isDeliveryDay(p.pickupDate)).toBe(true);
        expect(isDeliveryDay(p.deliveryDate)).toBe(true);
        expect(isSunday(p.deliveryDate) || isHoliday(p.deliveryDate)).toBe(false);
        expect(p.holidayDelivery).toBe(false);
        expect(p.pickupDate >= accraDate(now)).toBe(true);
        expect(p.deliveryDate >= p.pickupDate).toBe(true);
        expect(Date.parse(p.pickupWindow.earliest)).toBeGreaterThanOrEqual(ms);
        expect(p.pickupWindow.earliest <= p.pickupWindow.latest).toBe(true);
        expect(p.deliveryWindow.earliest <= p.deliveryWindow.latest).toBe(true);
        expect(p.pickupWindow.earliest <= p.deliveryWindow.latest).toBe(true);
        expect(p.estimatedDelivery).toBe(p.deliveryWindow.latest);
        const hour =
          new Date(p.deliveryWindow.latest).getUTCHours() +
          new Date(p.deliveryWindow.latest).getUTCMinutes() / 60;
        expect(hour).toBeLessThanOrEqual(DEFAULT_CALENDAR.closingHour);
        if (req !== undefined && req > accraDate(now)) expect(p.pickupDate >= req).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('validateCalendarConfig', () => {
  it('accepts the defaults', () => {
    expect(validateCalendarConfig(DEFAULT_CALENDAR)).toBe(DEFAULT_CALENDAR);
  });

  it.each<[string, Partial<CalendarConfig>, RegExp]>([
    ['fractional hour', { openingHour: 8.5 }, /openingHour/],
    ['hour out of range', { closingHour: 25 }, /closingHour/],
    ['cut-off before opening', { sameDayCutoffHour: 7 }, /openingHour < sameDayCutoffHour/],
    ['cut-off after closing', { sameDayCutoffHour: 21 }, /sameDayCutoffHour <= closingHour/],
    ['bad Eid date', { eidDates: ['2025-02-30'] }, /eidDates/],
    ['not a list', { extraHolidays: '2025-01-01' as never }, /extraHolidays/],
  ])('rejects %s', (_name, patch, message) => {
    expect(() => validateCalendarConfig({ ...DEFAULT_CALENDAR, ...patch })).toThrow(message);
  });
});
