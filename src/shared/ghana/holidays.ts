/**
 * Ghana public holidays and 'YYYY-MM-DD' date arithmetic (UTC-based day
 * numbers, so the host time zone never matters).
 */

export interface HolidayConfig {
  /**
   * Eid al-Fitr, Shaqq Day (the day after Eid al-Fitr, a holiday since the 2025
   * amendment) and Eid al-Adha, as declared. The Ministry of the Interior
   * announces these each year from the moon sighting, so they are configuration.
   * List the days actually observed (no weekend substitution is applied to them).
   */
  eidDates: readonly string[];
  /** Any other declared holiday (one-off days, a holiday moved by the President). */
  extraHolidays: readonly string[];
}

export const DEFAULT_HOLIDAYS: Readonly<HolidayConfig> = Object.freeze({
  // 2025 as declared; 2026-2027 are astronomical estimates: update when announced.
  eidDates: Object.freeze([
    '2025-03-31', // Eid al-Fitr (observed Monday)
    '2025-06-06', // Eid al-Adha
    '2026-03-20', // Eid al-Fitr (estimate)
    '2026-03-21', // Shaqq Day (estimate)
    '2026-05-27', // Eid al-Adha (estimate)
    '2027-03-10', // Eid al-Fitr (estimate)
    '2027-03-11', // Shaqq Day (estimate)
    '2027-05-17', // Eid al-Adha (estimate)
  ]),
  extraHolidays: Object.freeze([]),
});

export const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

// Planning one order asks about the same few dates dozens of times (is it a Sunday, a holiday,
// the next day...): each valid date's day number, and each day's date, is worked out once.
// Bounded: a caller naming many distinct dates only empties the memo.
const MEMO_LIMIT = 4096;
const dayOfDate = new Map<string, number>();
const dateOfDay = new Map<number, string>();

function remember<K, V>(memo: Map<K, V>, key: K, value: V): V {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
  return value;
}

/** The day number of a real calendar date written 'YYYY-MM-DD', else undefined. */
function dayNumberOf(s: string): number | undefined {
  const known = dayOfDate.get(s);
  if (known !== undefined) return known;
  const m = ISO_DATE.exec(s);
  if (!m) return undefined;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (new Date(t).toISOString().slice(0, 10) !== s) return undefined;
  return remember(dayOfDate, s, t / DAY_MS);
}

/** True for a real calendar date written 'YYYY-MM-DD'. */
export function isIsoDate(s: unknown): s is string {
  return typeof s === 'string' && dayNumberOf(s) !== undefined;
}

export function toDayNumber(date: string): number {
  const day = typeof date === 'string' ? dayNumberOf(date) : undefined;
  if (day === undefined) throw new RangeError(`expected a date as YYYY-MM-DD, got ${String(date)}`);
  return day;
}

export function fromDayNumber(day: number): string {
  return (
    dateOfDay.get(day) ??
    remember(dateOfDay, day, new Date(day * DAY_MS).toISOString().slice(0, 10))
  );
}

export function addDays(date: string, n: number): string {
  return fromDayNumber(toDayNumber(date) + n);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: string): number {
  // Day 0, 1970-01-01, was a Thursday (4).
  return (((toDayNumber(date) + 4) % 7) + 7) % 7;
}

export function isSunday(date: string): boolean {
  return weekday(date) === 0;
}

export function isSaturday(date: string): boolean {
  return weekday(date) === 6;
}

/** Easter Sunday, Anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** First Friday of December: Farmers' Day. */
export function farmersDay(year: number): string {
  const dec1 = `${year}-12-01`;
  return addDays(dec1, (5 - weekday(dec1) + 7) % 7);
}

export interface Holiday {
  date: string;
  name: string;
}

/**
 * Fixed-date statutory holidays for a year.
 * - Public Holidays (Amendment) Act 2019 (Act 986): Jul 1 Republic Day became
 *   a commemorative day (not a holiday); Aug 4 Founders' Day and Sep 21
 *   Kwame Nkrumah Memorial Day became holidays; Jan 7 Constitution Day added.
 * - Public Holidays and Commemorative Days (Amendment) Act 2025: Jul 1 Republic
 *   Day restored; Aug 4 dropped; Sep 21 renamed Founders' Day; Shaqq Day added
 *   (dated by moon sighting, so it lives in `eidDates`). The President may also
 *   move a Tue-Thu holiday to the Monday or Friday: add that day to
 *   `extraHolidays` (we then keep both days off, the cautious choice).
 * Years before 2019 use the 2019-2024 list; the service never plans them.
 */
function fixedHolidays(year: number): Holiday[] {
  const y = (md: string) => `${year}-${md}`;
  const list: Holiday[] = [
    { date: y('01-01'), name: "New Year's Day" },
    { date: y('01-07'), name: 'Constitution Day' },
    { date: y('03-06'), name: 'Independence Day' },
    { date: y('05-01'), name: "May Day (Workers' Day)" },
  ];
  if (year >= 2025) list.push({ date: y('07-01'), name: 'Republic Day' });
  else list.push({ date: y('08-04'), name: "Founders' Day" });
  list.push(
    {
      date: y('09-21'),
      name:
        year >= 2025 ? "Founders' Day (Kwame Nkrumah's birthday)" : 'Kwame Nkrumah Memorial Day',
    },
    { date: y('12-25'), name: 'Christmas Day' },
    { date: y('12-26'), name: 'Boxing Day' },
  );
  return list;
}

/**
 * Every public holiday of a year, sorted. A fixed holiday falling on a Saturday
 * or Sunday is also observed on the next weekday that is not already a holiday
 * (e.g. Sat 25 + Sun 26 Dec 2027 → Mon 27 + Tue 28), as Ghana announces each time.
 */
export function ghanaPublicHolidays(
  year: number,
  cfg: HolidayConfig = DEFAULT_HOLIDAYS,
): Holiday[] {
  const easter = easterSunday(year);
  const byDate = new Map<string, string>();
  const add = (date: string, name: string) => {
    if (!byDate.has(date)) byDate.set(date, name);
  };
  const fixed = fixedHolidays(year);
  for (const h of fixed) add(h.date, h.name);
  add(addDays(easter, -2), 'Good Friday');
  add(addDays(easter, 1), 'Easter Monday');
  add(farmersDay(year), "Farmers' Day");
  const prefix = `${year}-`;
  for (const d of cfg.eidDates) if (d.startsWith(prefix)) add(d, 'Eid');
  for (const d of cfg.extraHolidays) if (d.startsWith(prefix)) add(d, 'Declared holiday');
  for (const h of fixed) {
    const wd = weekday(h.date);
    if (wd !== 0 && wd !== 6) continue;
    let sub = addDays(h.date, wd === 6 ? 2 : 1);
    while (byDate.has(sub) || weekday(sub) === 0 || weekday(sub) === 6) sub = addDays(sub, 1);
    byDate.set(sub, `${h.name} (observed)`);
  }
  return [...byDate]
    .map(([date, name]) => ({ date, name }))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** Name of the holiday on that date, or null. */
// A year's holidays are worked out once per configuration: planning asks about many days.
const yearCache = new WeakMap<HolidayConfig, Map<number, Map<string, string>>>();

function holidaysByDate(year: number, cfg: HolidayConfig): Map<string, string> {
  let years = yearCache.get(cfg);
  if (!years) yearCache.set(cfg, (years = new Map()));
  let byDate = years.get(year);
  if (!byDate) {
    byDate = new Map(ghanaPublicHolidays(year, cfg).map((h) => [h.date, h.name]));
    years.set(year, byDate);
  }
  return byDate;
}

export function holidayName(date: string, cfg: HolidayConfig = DEFAULT_HOLIDAYS): string | null {
  const year = Number(date.slice(0, 4));
  toDayNumber(date); // validates
  // A late-December substitute can only fall in its own year; no cross-year lookup needed.
  return holidaysByDate(year, cfg).get(date) ?? null;
}

export function isHoliday(date: string, cfg: HolidayConfig = DEFAULT_HOLIDAYS): boolean {
  return holidayName(date, cfg) !== null;
}
