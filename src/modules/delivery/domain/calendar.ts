/**
 * Delivery days and windows in Ghana time. Pure: `now` is always a parameter.
 * Dates are 'YYYY-MM-DD' strings in Africa/Accra; instants are ISO 8601 UTC.
 */
import {
  DAY_MS,
  DEFAULT_HOLIDAYS,
  addDays,
  isHoliday,
  isIsoDate,
  isSaturday,
  isSunday,
  toDayNumber,
  type HolidayConfig,
} from '../../../shared/ghana/index.ts';
import type { Priority } from './pricing.ts';

/**
 * Africa/Accra is GMT all year (UTC+0, no daylight saving), so a fixed offset
 * is exact and avoids depending on the host's ICU time-zone data.
 */
export const ACCRA_UTC_OFFSET_MINUTES = 0;

export interface CalendarConfig extends HolidayConfig {
  /** Orders arriving before this local hour on a delivery day are picked up the same day. */
  sameDayCutoffHour: number;
  openingHour: number;
  closingHour: number;
}

export const DEFAULT_CALENDAR: Readonly<CalendarConfig> = Object.freeze({
  sameDayCutoffHour: 15,
  openingHour: 8,
  closingHour: 20,
  ...DEFAULT_HOLIDAYS,
});

/** The local (Accra) calendar date of an instant. */
export function accraDate(now: Date): string {
  return new Date(now.getTime() + ACCRA_UTC_OFFSET_MINUTES * 60_000).toISOString().slice(0, 10);
}

/** Instant of a local (Accra) wall-clock time, given as minutes after midnight. */
function accraInstant(date: string, minutes: number): Date {
  return new Date(toDayNumber(date) * DAY_MS + (minutes - ACCRA_UTC_OFFSET_MINUTES) * 60_000);
}

/** Couriers run Monday to Saturday, except public holidays. */
export function isDeliveryDay(date: string, cfg: CalendarConfig = DEFAULT_CALENDAR): boolean {
  return !isSunday(date) && !isHoliday(date, cfg);
}

/** First delivery day on or after `date` (after it when `strictlyAfter`). */
export function nextDeliveryDay(
  date: string,
  cfg: CalendarConfig = DEFAULT_CALENDAR,
  strictlyAfter = false,
): string {
  let d = strictlyAfter ? addDays(date, 1) : date;
  // Guard against a config that declares every day a holiday.
  for (let i = 0; i < 370; i++, d = addDays(d, 1)) if (isDeliveryDay(d, cfg)) return d;
  throw new Error(`no delivery day within a year of ${date}: check the holiday configuration`);
}

export function validateCalendarConfig(cfg: CalendarConfig): CalendarConfig {
  const hour = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 24;
  for (const k of ['sameDayCutoffHour', 'openingHour', 'closingHour'] as const) {
    if (!hour(cfg[k]))
      throw new Error(`calendar config: ${k} must be an integer hour 0..24, got ${String(cfg[k])}`);
  }
  if (!(cfg.openingHour < cfg.sameDayCutoffHour && cfg.sameDayCutoffHour <= cfg.closingHour)) {
    throw new Error('calendar config: need openingHour < sameDayCutoffHour <= closingHour');
  }
  for (const k of ['eidDates', 'extraHolidays'] as const) {
    if (!Array.isArray(cfg[k]))
      throw new Error(`calendar config: ${k} must be an array of YYYY-MM-DD dates`);
    for (const d of cfg[k])
      if (!isIsoDate(d)) throw new Error(`calendar config: ${k} has an invalid date ${String(d)}`);
  }
  return cfg;
}

export interface Window {
  earliest: string;
  latest: string;
}

export interface DeliveryPlan {
  pickupDate: string;
  deliveryDate: string;
  pickupWindow: Window;
  deliveryWindow: Window;
  /** Latest time of the delivery window: the time we commit to. */
  estimatedDelivery: string;
  /** The delivery day is a Saturday. */
  weekendDelivery: boolean;
  /**
   * Whether the delivery falls on a public holiday. Always false: planning
   * skips holidays. Kept so the estimate can report it (additional_info).
   */
  holidayDelivery: boolean;
}

/** Window shapes in minutes from the pickup start; clamped to closing time. */
const RULES: Record<
  Priority,
  { pickup: number; deliveryFrom: number; deliveryTo: number; nextDay: boolean }
> = {
  standard: { pickup: 120, deliveryFrom: 60, deliveryTo: 240, nextDay: false },
  cargo: { pickup: 180, deliveryFrom: 180, deliveryTo: 420, nextDay: false }, // bigger loads, later window
  economy: { pickup: 360, deliveryFrom: 0, deliveryTo: 0, nextDay: true }, // batched: next delivery day
};

/** How long after its pickup starts a standard delivery is promised (the end of its delivery window). */
export const STANDARD_PROMISE_MINUTES = RULES.standard.deliveryTo;

/** Pickup start is rounded up to a quarter hour for tidy windows. */
const SLOT_MINUTES = 15;

/**
 * Plan pickup and delivery windows.
 * - No date, today or a past date: same-day pickup when `now` is before the
 *   cut-off on a delivery day, else the next delivery day at opening time.
 * - A future date is honoured (moved to the next delivery day if it is a
 *   Sunday or holiday), pickup from opening time.
 * - standard and cargo deliver on the pickup day; economy on the next delivery day.
 */
export function planWindows(
  now: Date,
  requestedDate: string | undefined,
  priority: Priority,
  cfg: CalendarConfig = DEFAULT_CALENDAR,
): DeliveryPlan {
  if (Number.isNaN(now.getTime())) throw new RangeError('now must be a valid Date');
  const rule = RULES[priority];
  if (!rule) throw new RangeError(`unknown priority: ${String(priority)}`);
  if (requestedDate !== undefined) toDayNumber(requestedDate); // validates

  const open = cfg.openingHour * 60;
  const close = cfg.closingHour * 60;
  const today = accraDate(now);

  let pickupDate: string;
  let start = open;
  if (requestedDate !== undefined && requestedDate > today) {
    pickupDate = nextDeliveryDay(requestedDate, cfg);
  } else {
    const localMs = now.getTime() + ACCRA_UTC_OFFSET_MINUTES * 60_000;
    const minutesNow = (localMs - toDayNumber(today) * DAY_MS) / 60_000;
    if (isDeliveryDay(today, cfg) && minutesNow < cfg.sameDayCutoffHour * 60) {
      pickupDate = today;
      start = Math.max(open, Math.ceil(minutesNow / SLOT_MINUTES) * SLOT_MINUTES);
    } else {
      pickupDate = nextDeliveryDay(today, cfg, true);
    }
  }

  const clamp = (m: number) => Math.min(m, close);
  const pickupWindow: Window = {
    earliest: accraInstant(pickupDate, start).toISOString(),
    latest: accraInstant(pickupDate, Math.max(start, clamp(start + rule.pickup))).toISOString(),
  };

  let deliveryDate = pickupDate;
  let from: number;
  let to: number;
  if (rule.nextDay) {
    deliveryDate = nextDeliveryDay(pickupDate, cfg, true);
    from = open;
    to = close;
  } else {
    from = clamp(start + rule.deliveryFrom);
    to = Math.max(from, clamp(start + rule.deliveryTo));
  }
  const deliveryWindow: Window = {
    earliest: accraInstant(deliveryDate, from).toISOString(),
    latest: accraInstant(deliveryDate, to).toISOString(),
  };

  return {
    pickupDate,
    deliveryDate,
    pickupWindow,
    deliveryWindow,
    estimatedDelivery: deliveryWindow.latest,
    weekendDelivery: isSaturday(deliveryDate),
    holidayDelivery: isHoliday(deliveryDate, cfg),
  };
}
