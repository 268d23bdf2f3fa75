import { addDays, DAY_MS, isHoliday, weekday } from '../../src/shared/ghana/index.ts';

/**
 * 08:00 in Accra (UTC+0) on the first Monday at least `daysAhead` days from now whose working week
 * (Monday to Friday) has no Ghanaian public holiday, so orders placed and advanced on it are in
 * service hours whatever day the suite runs (three weeks from 1 December is Boxing Day observed).
 */
export function serviceMondayAhead(daysAhead = 21, now = Date.now()): number {
  const earliest = new Date(now + daysAhead * DAY_MS).toISOString().slice(0, 10);
  let monday = addDays(earliest, (8 - weekday(earliest)) % 7);
  while ([0, 1, 2, 3, 4].some((n) => isHoliday(addDays(monday, n)))) monday = addDays(monday, 7);
  return Date.parse(`${monday}T08:00:00Z`);
}
