/**
 * Delivery windows a partner asks for (orders.create's pickup_ready_at and dropoff_deadline) and
 * the ones orders.estimate offers. Pure: `now` is a parameter. Accra is UTC+0 all year, so an
 * instant's UTC wall clock is its Accra wall clock (calendar.ts).
 */
import { errors, type AppError } from '../../../platform/errors.ts';
import { DAY_MS, holidayName, isSunday, toDayNumber } from '../../../shared/ghana/index.ts';
import { accraDate, isDeliveryDay, type CalendarConfig } from './calendar.ts';

/** How far ahead a window may end. */
export const WINDOW_MAX_DAYS = 14;
/** A pickup_ready_at this much before now is still accepted (clocks differ; the signature allows 5 minutes too). */
export const WINDOW_PAST_GRACE_MS = 5 * 60_000;
/** The windows orders.estimate offers: this many delivery days, slots this long, starting this often. */
export const OFFERED_DAYS = 3;
export const SLOT_HOURS = 3;

export interface WindowInput {
  pickup_ready_at?: string | undefined;
  dropoff_deadline?: string | undefined;
}

export interface DeliveryWindow {
  pickupReadyAt: Date | null;
  dropoffDeadline: Date | null;
}

export interface WindowRules {
  calendar: CalendarConfig;
  /** The shortest window a delivery can be made in (WINDOW_MIN_MINUTES). */
  minMinutes: number;
}

// RFC 3339 with its offset (what `format: date-time` accepts), and nothing else: no control
// characters, no bare dates, no local times without an offset.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

const issue = (field: string, text: string) => [{ field, issue: text }];

/** The instant a window field names, or DELIVERY_WINDOW_INVALID. */
export function parseWindowTime(value: string, field: string): Date {
  const m = DATE_TIME.exec(value);
  const at = m ? Date.parse(value.toUpperCase().replace(' ', 'T')) : Number.NaN;
  // Date.parse rolls 31 February over to March: the written day must be the parsed one.
  const real = m && Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[3]) <= 31;
  if (!m || !real || Number.isNaN(at) || Number(m[4]) > 23 || Number(m[6]) > 59) {
    throw errors.deliveryWindowInvalid(
      `${field} must be a date-time with its offset, e.g. 2026-12-01T10:00:00Z (Accra is UTC+0).`,
      issue(field, 'must be a date-time with its offset'),
    );
  }
  const written = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (written.getUTCDate() !== Number(m[3]))
    throw errors.deliveryWindowInvalid(
      `${field} names a day that does not exist.`,
      issue(field, 'names a day that does not exist'),
    );
  return new Date(at);
}

const hhmm = (d: Date) => d.toISOString().slice(11, 16);

/** DELIVERY_WINDOW_ON_HOLIDAY or _OUTSIDE_SERVICE_HOURS when the instant is not in service time. */
function inService(at: Date, field: string, cal: CalendarConfig): AppError | null {
  const date = accraDate(at);
  const holiday = holidayName(date, cal);
  if (holiday)
    return errors.deliveryWindowOnHoliday(
      `${field} falls on ${date}, a public holiday (${holiday}): couriers do not run.`,
      issue(field, `is on a public holiday (${holiday})`),
    );
  const minutes = (at.getTime() - toDayNumber(date) * DAY_MS) / 60_000;
  if (isSunday(date) || minutes < cal.openingHour * 60 || minutes > cal.closingHour * 60)
    return errors.deliveryWindowOutsideServiceHours(
      `${field} (${date} ${hhmm(at)} Accra time) is outside the service hours: Monday to Saturday, ${cal.openingHour}:00 to ${cal.closingHour}:00.`,
      issue(field, 'is outside the service hours'),
    );
  return null;
}

/**
 * The window of an order, checked in this order: the form, the past, the 14 days, the order of the
 * two ends, the minimum length, then holidays and service hours. Either end may come alone: without
 * pickup_ready_at the parcel is ready now; without dropoff_deadline nothing is promised beyond the
 * usual plan. Neither: the order has no window (null).
 */
export function checkWindow(
  input: WindowInput,
  now: Date,
  rules: WindowRules,
): DeliveryWindow | null {
  const { pickup_ready_at: readyText, dropoff_deadline: deadlineText } = input;
  if (readyText === undefined && deadlineText === undefined) return null;
  const ready = readyText === undefined ? null : parseWindowTime(readyText, 'pickup_ready_at');
  const deadline =
    deadlineText === undefined ? null : parseWindowTime(deadlineText, 'dropoff_deadline');
  if (ready && ready.getTime() < now.getTime() - WINDOW_PAST_GRACE_MS)
    throw errors.deliveryWindowInPast(
      'pickup_ready_at is in the past: send a time from now on (or leave it out: ready now).',
      issue('pickup_ready_at', 'is in the past'),
    );
  if (deadline && deadline.getTime() <= now.getTime())
    throw errors.deliveryWindowInPast(
      'dropoff_deadline has passed.',
      issue('dropoff_deadline', 'is in the past'),
    );
  const horizon = now.getTime() + WINDOW_MAX_DAYS * DAY_MS;
  for (const [field, at] of [
    ['pickup_ready_at', ready],
    ['dropoff_deadline', deadline],
  ] as const) {
    if (at && at.getTime() > horizon)
      throw errors.deliveryWindowTooFar(
        `${field} is more than ${WINDOW_MAX_DAYS} days ahead; book it closer to the day.`,
        issue(field, `is more than ${WINDOW_MAX_DAYS} days ahead`),
      );
  }
  if (ready && deadline && deadline.getTime() <= ready.getTime())
    throw errors.deliveryWindowReversed(
      'dropoff_deadline must be after pickup_ready_at.',
      issue('dropoff_deadline', 'is not after pickup_ready_at'),
    );
  const start = Math.max(ready?.getTime() ?? now.getTime(), now.getTime());
  if (deadline && deadline.getTime() - start < rules.minMinutes * 60_000)
    throw errors.deliveryWindowTooShort(
      `The window leaves less than ${rules.minMinutes} minutes between pickup and dropoff_deadline, the least a delivery needs.`,
      issue('dropoff_deadline', `is less than ${rules.minMinutes} minutes after pickup`),
    );
  const refused =
    (ready && inService(ready, 'pickup_ready_at', rules.calendar)) ||
    (deadline && inService(deadline, 'dropoff_deadline', rules.calendar));
  if (refused) throw refused;
  return { pickupReadyAt: ready, dropoffDeadline: deadline };
}

export interface OfferedWindow {
  pickup_ready_at: string;
  dropoff_deadline: string;
}

/**
 * The windows orders.estimate offers: on each of the next OFFERED_DAYS delivery days with a slot
 * left (today included), SLOT_HOURS-long slots from opening time, each ending by closing time and starting no
 * earlier than now. Every one passes checkWindow.
 */
export function offeredWindows(now: Date, rules: WindowRules): OfferedWindow[] {
  const cal = rules.calendar;
  const slot = Math.max(SLOT_HOURS * 60, rules.minMinutes);
  const out: OfferedWindow[] = [];
  let day = toDayNumber(accraDate(now));
  const last = day + WINDOW_MAX_DAYS;
  for (let days = 0; days < OFFERED_DAYS && day < last; day++) {
    const date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (!isDeliveryDay(date, cal)) continue;
    const before = out.length;
    for (let m = cal.openingHour * 60; m + slot <= cal.closingHour * 60; m += SLOT_HOURS * 60) {
      const start = day * DAY_MS + m * 60_000;
      if (start < now.getTime()) continue;
      out.push({
        pickup_ready_at: new Date(start).toISOString(),
        dropoff_deadline: new Date(start + slot * 60_000).toISOString(),
      });
    }
    // A day whose slots have all begun is not counted: the estimate still offers OFFERED_DAYS days.
    if (out.length > before) days++;
  }
  return out;
}
