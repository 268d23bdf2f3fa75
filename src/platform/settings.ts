/**
 * Reading settings from the environment, for the app and every module: each reader reports what
 * is wrong into `problems`, so that all mistakes are shown together at start.
 */
export type Env = Record<string, string | undefined>;

export function int(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
  problems: string[],
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    return fallback;
  }
  return value;
}

export function onOff(env: Env, name: string, problems: string[]): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'off') return false;
  if (raw !== 'on') problems.push(`${name} must be on or off (got "${raw}")`);
  return raw === 'on';
}

export function oneOf<T extends string>(
  env: Env,
  name: string,
  allowed: readonly T[],
  fallback: T,
  problems: string[],
): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
  return fallback;
}

export function dateList(
  env: Env,
  name: string,
  fallback: readonly string[],
  problems: string[],
): readonly string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const dates = raw
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  const bad = dates.filter((d) => !/^\d{4}-\d{2}-\d{2}$/.test(d));
  if (bad.length > 0)
    problems.push(`${name} must be comma-separated YYYY-MM-DD dates (bad: ${bad.join(', ')})`);
  return dates;
}
