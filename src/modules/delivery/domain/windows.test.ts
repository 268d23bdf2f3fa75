import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.ts';
import { DEFAULT_CALENDAR } from './calendar.ts';
import { checkWindow, offeredWindows, parseWindowTime, type WindowInput } from './windows.ts';

// Monday 30 March 2026, 09:00 in Accra (UTC+0).
const NOW = new Date('2026-03-30T09:00:00Z');
const RULES = { calendar: DEFAULT_CALENDAR, minMinutes: 60 };

function codeOf(input: WindowInput, now = NOW): string {
  try {
    checkWindow(input, now, RULES);
    return 'OK';
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).statusCode).toBe(400);
    return (err as AppError).code;
  }
}

describe('checkWindow', () => {
  it('is null without either field, so an order without a window is planned as before', () => {
    expect(checkWindow({}, NOW, RULES)).toBeNull();
  });

  it('reads both ends as instants, whatever offset they were written with', () => {
    expect(
      checkWindow(
        { pickup_ready_at: '2026-03-31T11:00:00+01:00', dropoff_deadline: '2026-03-31T13:00:00Z' },
        NOW,
        RULES,
      ),
    ).toEqual({
      pickupReadyAt: new Date('2026-03-31T10:00:00Z'),
      dropoffDeadline: new Date('2026-03-31T13:00:00Z'),
    });
  });

  it('takes either end alone: a deadline alone counts from now', () => {
    expect(checkWindow({ dropoff_deadline: '2026-03-30T10:00:00Z' }, NOW, RULES)).toEqual({
      pickupReadyAt: null,
      dropoffDeadline: new Date('2026-03-30T10:00:00Z'),
    });
    expect(codeOf({ dropoff_deadline: '2026-03-30T09:59:00Z' })).toBe('DELIVERY_WINDOW_TOO_SHORT');
    expect(codeOf({ pickup_ready_at: '2026-04-01T08:00:00Z' })).toBe('OK');
  });

  it.each([
    ['no offset', { pickup_ready_at: '2026-03-31T10:00:00' }, 'DELIVERY_WINDOW_INVALID'],
    ['a bare date', { dropoff_deadline: '2026-03-31' }, 'DELIVERY_WINDOW_INVALID'],
    ['a NUL byte', { pickup_ready_at: '2026-03-31T10:00:00Z\u0000' }, 'DELIVERY_WINDOW_INVALID'],
    ['31 February', { pickup_ready_at: '2026-02-31T10:00:00Z' }, 'DELIVERY_WINDOW_INVALID'],
    ['hour 25', { pickup_ready_at: '2026-03-31T25:00:00Z' }, 'DELIVERY_WINDOW_INVALID'],
    ['year 0', { pickup_ready_at: '0000-01-01T10:00:00Z' }, 'DELIVERY_WINDOW_IN_PAST'],
    ['an hour ago', { pickup_ready_at: '2026-03-30T08:00:00Z' }, 'DELIVERY_WINDOW_IN_PAST'],
    ['a passed deadline', { dropoff_deadline: '2026-03-30T09:00:00Z' }, 'DELIVERY_WINDOW_IN_PAST'],
    ['year 9999', { dropoff_deadline: '9999-12-31T10:00:00Z' }, 'DELIVERY_WINDOW_TOO_FAR'],
    ['15 days ahead', { pickup_ready_at: '2026-04-14T10:00:00Z' }, 'DELIVERY_WINDOW_TOO_FAR'],
    [
      'a deadline before ready',
      { pickup_ready_at: '2026-03-31T12:00:00Z', dropoff_deadline: '2026-03-31T11:00:00Z' },
      'DELIVERY_WINDOW_REVERSED',
    ],
    [
      'a deadline equal to ready',
      { pickup_ready_at: '2026-03-31T12:00:00Z', dropoff_deadline: '2026-03-31T12:00:00Z' },
      'DELIVERY_WINDOW_REVERSED',
    ],
    [
      '45 minutes',
      { pickup_ready_at: '2026-03-31T12:00:00Z', dropoff_deadline: '2026-03-31T12:45:00Z' },
      'DELIVERY_WINDOW_TOO_SHORT',
    ],
    // Easter Monday 2026 is 6 April.
    ['Easter Monday', { pickup_ready_at: '2026-04-06T10:00:00Z' }, 'DELIVERY_WINDOW_ON_HOLIDAY'],
    [
      'a Sunday',
      { pickup_ready_at: '2026-04-05T10:00:00Z' },
      'DELIVERY_WINDOW_OUTSIDE_SERVICE_HOURS',
    ],
    [
      'before opening',
      { pickup_ready_at: '2026-03-31T07:59:00Z' },
      'DELIVERY_WINDOW_OUTSIDE_SERVICE_HOURS',
    ],
    [
      'after closing',
      { pickup_ready_at: '2026-03-31T10:00:00Z', dropoff_deadline: '2026-03-31T20:01:00Z' },
      'DELIVERY_WINDOW_OUTSIDE_SERVICE_HOURS',
    ],
  ] as const)('refuses %s with its own code', (_name, input, code) => {
    expect(codeOf(input)).toBe(code);
  });

  it('accepts a ready time up to 5 minutes ago (clocks differ) and the edges of the service hours', () => {
    expect(codeOf({ pickup_ready_at: '2026-03-30T08:56:00Z' })).toBe('OK');
    expect(
      codeOf({ pickup_ready_at: '2026-03-31T08:00:00Z', dropoff_deadline: '2026-03-31T20:00:00Z' }),
    ).toBe('OK');
    expect(codeOf({ dropoff_deadline: '2026-04-13T09:00:00Z' })).toBe('OK');
  });
});

describe('parseWindowTime', () => {
  it('names the field it refuses', () => {
    try {
      parseWindowTime('tomorrow', 'dropoff_deadline');
      expect.unreachable();
    } catch (err) {
      expect((err as AppError).details).toEqual([
        { field: 'dropoff_deadline', issue: 'must be a date-time with its offset' },
      ]);
    }
  });
});

describe('offeredWindows', () => {
  it('offers 3-hour slots from now on for the next three delivery days, skipping Sundays and holidays', () => {
    // Thursday 2 April 2026 at 12:00: Good Friday (3 April), Sunday and Easter Monday are skipped.
    const windows = offeredWindows(new Date('2026-04-02T12:00:00Z'), RULES);
    expect(windows.map((w) => w.pickup_ready_at.slice(0, 13))).toEqual([
      '2026-04-02T14',
      '2026-04-02T17',
      '2026-04-04T08',
      '2026-04-04T11',
      '2026-04-04T14',
      '2026-04-04T17',
      '2026-04-07T08',
      '2026-04-07T11',
      '2026-04-07T14',
      '2026-04-07T17',
    ]);
    expect(windows[0]).toEqual({
      pickup_ready_at: '2026-04-02T14:00:00.000Z',
      dropoff_deadline: '2026-04-02T17:00:00.000Z',
    });
  });

  it('offers only windows orders.create accepts, and none shorter than the minimum', () => {
    const windows = offeredWindows(NOW, { ...RULES, minMinutes: 240 });
    expect(windows.length).toBeGreaterThan(0);
    for (const w of windows) {
      expect(Date.parse(w.dropoff_deadline) - Date.parse(w.pickup_ready_at)).toBe(240 * 60_000);
      expect(codeOf(w)).toBe('OK');
    }
  });

  it('starts on the next delivery day once today has no slot left', () => {
    const windows = offeredWindows(new Date('2026-03-30T17:30:00Z'), RULES);
    expect(windows[0]!.pickup_ready_at).toBe('2026-03-31T08:00:00.000Z');
    expect(new Set(windows.map((w) => w.pickup_ready_at.slice(0, 10))).size).toBe(3);
  });
});
