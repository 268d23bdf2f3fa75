import { parseArgs } from 'node:util';

/** What one simulated day is made of; times are simulated unless named wall. */
export interface SimOptions {
  couriers: number;
  ordersPerHour: number;
  hours: number;
  /** Simulated seconds per wall second. */
  speed: number;
  /** Couriers' response to an offer: lognormal median (seconds) and log-space spread. */
  responseMedianS: number;
  responseSigma: number;
  /** Share of couriers who decline an offer they see (the rest accept). */
  declineRate: number;
  /** Share of deliveries that fail at the door (recipient absent, refused). */
  failRate: number;
  /** Of the orders: cash-on-delivery sales and prepaid sales; the rest are plain delivery orders. */
  codShare: number;
  prepaidShare: number;
  /** Partners placing the orders, and vendors selling through them. */
  partners: number;
  vendors: number;
  /** After the last order, how long couriers keep working before the day is judged (minutes). */
  drainMinutes: number;
  /** An operator assigns a starved order (no courier left to offer it to) by hand; off shows the raw dispatch. */
  dispatcher: boolean;
  seed: number;
  /** ISO time the day starts (simulated); default today 08:00 UTC (Accra). */
  start: string | undefined;
  /** Keep the PostgreSQL schema afterwards (to look at it). */
  keep: boolean;
  /** Print progress every this many simulated minutes (0: quiet). */
  progressMinutes: number;
}

export const DEFAULTS: SimOptions = {
  couriers: 30,
  ordersPerHour: 200,
  hours: 2,
  speed: 60,
  responseMedianS: 20,
  responseSigma: 0.5,
  declineRate: 0.03,
  failRate: 0.05,
  codShare: 0.3,
  prepaidShare: 0.2,
  partners: 3,
  vendors: 6,
  drainMinutes: 90,
  dispatcher: true,
  seed: 28,
  start: undefined,
  keep: false,
  progressMinutes: 15,
};

const NUMBERS = {
  couriers: 'couriers',
  'orders-per-hour': 'ordersPerHour',
  hours: 'hours',
  speed: 'speed',
  'response-median': 'responseMedianS',
  'response-sigma': 'responseSigma',
  'decline-rate': 'declineRate',
  'fail-rate': 'failRate',
  'cod-share': 'codShare',
  'prepaid-share': 'prepaidShare',
  partners: 'partners',
  vendors: 'vendors',
  'drain-minutes': 'drainMinutes',
  seed: 'seed',
  progress: 'progressMinutes',
} as const satisfies Record<string, keyof SimOptions>;

/** Reads `--couriers 30 --orders-per-hour 200 ...`; throws a sentence for a bad value. */
export function readOptions(args: string[]): SimOptions {
  const { values } = parseArgs({
    args,
    options: {
      ...Object.fromEntries(Object.keys(NUMBERS).map((k) => [k, { type: 'string' as const }])),
      start: { type: 'string' },
      'no-dispatcher': { type: 'boolean' },
      keep: { type: 'boolean' },
    },
  });
  const out: SimOptions = { ...DEFAULTS };
  const raw = values as Record<string, string | boolean | undefined>;
  for (const [flag, key] of Object.entries(NUMBERS)) {
    const given = raw[flag];
    if (typeof given !== 'string') continue;
    const n = Number(given);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${flag} must be a number ≥ 0`);
    (out as unknown as Record<string, number>)[key] = n;
  }
  if (out.couriers < 1 || out.speed <= 0 || out.hours <= 0)
    throw new Error('--couriers, --speed and --hours must be above 0');
  if (out.codShare + out.prepaidShare > 1) throw new Error('--cod-share + --prepaid-share > 1');
  out.start = typeof raw.start === 'string' ? raw.start : undefined;
  out.dispatcher = !raw['no-dispatcher'];
  out.keep = Boolean(raw.keep);
  return out;
}

/** When the day starts: --start, or today 08:00 UTC (08:00 in Accra). */
export function dayStart(o: SimOptions, wallNow = Date.now()): number {
  if (o.start) {
    const at = Date.parse(o.start);
    if (Number.isNaN(at)) throw new Error('--start must be an ISO 8601 time');
    return at;
  }
  const d = new Date(wallNow);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 8);
}
