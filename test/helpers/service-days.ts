import { addDays, DAY_MS, isHoliday } from '../../src/shared/ghana/index.ts';

/**
 * 08:00 in Accra (UTC+0) on the first Monday at least `daysAhead` days from now whose working week
 * (Monday to Friday) has no Ghanaian public holiday, so orders placed and advanced on it are in
 * service hours whatever day the suite runs (three weeks from 1 December is Boxing Day observed).
 */
export function serviceMondayAhead(daysAhead = 21, now = Date.now()): number {
  const d = new Date(now + daysAhead * DAY_MS);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7));
  d.setUTCHours(8, 0, 0, 0);
  for (;;) {
    const monday = d.toISOString().slice(0, 10);
    if (![0, 1, 2, 3, 4].some((n) => isHoliday(addDays(monday, n)))) return d.getTime();
    d.setUTCDate(d.getUTCDate() + 7);
  }
}
