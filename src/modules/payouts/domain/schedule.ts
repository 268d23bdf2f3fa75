/** Accra's calendar day and minute of day for an instant (Ghana keeps GMT all year, but ask the zone database rather than assume). */
export function accraDay(at: number): { day: string; minute: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Africa/Accra',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return {
    day: `${get('year')}-${get('month')}-${get('day')}`,
    minute: Number(get('hour')) * 60 + Number(get('minute')),
  };
}

/** The Accra day whose scheduled run is due at `at` (past that day's cut-off), or undefined before it. */
export function scheduledRunDue(at: number, cutoffMinutes: number): string | undefined {
  const { day, minute } = accraDay(at);
  return minute >= cutoffMinutes ? day : undefined;
}
