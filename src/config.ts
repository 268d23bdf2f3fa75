import { resolve } from 'node:path';
import type { HubtelConfig } from './integrations/payments/hubtel.ts';
import { DEFAULT_CALENDAR, validateCalendarConfig, type CalendarConfig } from './modules/delivery/domain/calendar.ts';
import { DEFAULT_PRICING, validatePricingConfig, type PricingConfig } from './modules/delivery/domain/pricing.ts';

export type ServiceName = 'delivery' | 'safe-catalog';
export const ALL_SERVICES: readonly ServiceName[] = ['delivery', 'safe-catalog'];

export type DatabaseConfig =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'memory' }
  | { kind: 'postgres'; url: string; poolSize: number; schema: string | undefined };

export interface Config {
  port: number;
  host: string;
  publicBaseUrl: string;
  services: ReadonlySet<ServiceName>;
  dataDir: string;
  database: DatabaseConfig;
  redisUrl: string | undefined;
  adminToken: string | undefined;
  /** 32-byte key that seals secrets at rest; undefined means a development key is used. */
  secretsKey: Buffer | undefined;
  logLevel: string;
  rateLimits: { readsPerMinute: number; writesPerMinute: number };
  /** How long an instance may serve a cached key, partner status or limit (must stay under 5 s). */
  authCacheTtlMs: number;
  nonceTtlSeconds: number;
  clockSkewSeconds: number;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  /** A request must arrive whole (headers and body) within this; slow senders are cut off. */
  requestTimeoutMs: number;
  /** Open connections per instance; more are refused until some close. */
  maxConnections: number;
  /** Create a demo partner and staging key on an empty development database (`npm start`). */
  sandboxQuickstart: boolean;
  delivery: {
    pricing: PricingConfig;
    calendar: CalendarConfig;
    /** Radius within which a coordinate takes a known area's name. */
    areaRadiusKm: number;
    /** Seconds between the sandbox courier's steps for staging orders; 0 turns it off. */
    sandboxCourierStepSeconds: number;
    /** How often cancelled wallet-funded orders are refunded; 0 turns the job off. */
    refundIntervalMs: number;
  };
  webhooks: {
    /** Run the dispatcher in this process (API-only instances turn it off). */
    dispatcher: boolean;
    retryScheduleMs: number[];
    timeoutMs: number;
    /** Staging events may go to loopback and private addresses (local receivers); production never. */
    localDestinations: boolean;
    concurrency: number;
    perEndpointConcurrency: number;
    pollMs: number;
  };
  payments: {
    gateway: 'sandbox' | 'hubtel';
    /** Production may pay through the sandbox gateway (demo deployments only). */
    sandboxForProduction: boolean;
    /** An unpaid checkout expires after this long. */
    checkoutExpiryMinutes: number;
    hubtel: HubtelConfig | undefined;
  };
}


export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    return fallback;
  }
  return value;
}

/** A development switch: off unless set to exactly `on`, and a misspelling is reported, not ignored. */
function onOff(env: Env, name: string, problems: string[]): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'off') return false;
  if (raw !== 'on') problems.push(`${name} must be on or off (got "${raw}")`);
  return raw === 'on';
}

function database(env: Env, dataDir: string, problems: string[]): DatabaseConfig {
  const url = env.DATABASE_URL;
  if (url === undefined || url === '') return { kind: 'pglite', dataDir: resolve(dataDir, 'pgdata') };
  if (url === 'memory:') return { kind: 'memory' };
  if (/^postgres(ql)?:\/\//.test(url)) {
    const schema = env.DATABASE_SCHEMA || undefined;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      problems.push('DATABASE_SCHEMA must be a lower-case SQL identifier');
    }
    return { kind: 'postgres', url, poolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 200, problems), schema };
  }
  problems.push('DATABASE_URL must be unset (embedded), "memory:" or a postgres:// URL');
  return { kind: 'memory' };
}

function services(env: Env, problems: string[]): Set<ServiceName> {
  const raw = env.SERVICES;
  if (raw === undefined || raw.trim() === '') return new Set(ALL_SERVICES);
  const chosen = new Set<ServiceName>();
  for (const name of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    if ((ALL_SERVICES as readonly string[]).includes(name)) chosen.add(name as ServiceName);
    else problems.push(`SERVICES: unknown service "${name}" (known: ${ALL_SERVICES.join(', ')})`);
  }
  return chosen;
}

function secretsKey(env: Env, problems: string[]): Buffer | undefined {
  const raw = env.SECRETS_KEY;
  if (raw === undefined || raw === '') return undefined;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) problems.push('SECRETS_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  return key;
}

function pricing(env: Env, problems: string[]): PricingConfig {
  const raw = env.PRICING_JSON;
  if (!raw) return DEFAULT_PRICING;
  try {
    const over = JSON.parse(raw) as Partial<PricingConfig>;
    return validatePricingConfig({
      ...DEFAULT_PRICING,
      ...over,
      basePesewas: { ...DEFAULT_PRICING.basePesewas, ...over.basePesewas },
      perKmPesewas: { ...DEFAULT_PRICING.perKmPesewas, ...over.perKmPesewas },
      minimumPesewas: { ...DEFAULT_PRICING.minimumPesewas, ...over.minimumPesewas },
    });
  } catch (err) {
    problems.push(`PRICING_JSON: ${(err as Error).message}`);
    return DEFAULT_PRICING;
  }
}

function dateList(env: Env, name: string, fallback: readonly string[], problems: string[]): readonly string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const dates = raw.split(',').map((d) => d.trim()).filter(Boolean);
  const bad = dates.filter((d) => !/^\d{4}-\d{2}-\d{2}$/.test(d));
  if (bad.length > 0) problems.push(`${name} must be comma-separated YYYY-MM-DD dates (bad: ${bad.join(', ')})`);
  return dates;
}

function calendar(env: Env, problems: string[]): CalendarConfig {
  const cfg: CalendarConfig = {
    ...DEFAULT_CALENDAR,
    sameDayCutoffHour: int(env, 'SAME_DAY_CUTOFF_HOUR', DEFAULT_CALENDAR.sameDayCutoffHour, 0, 23, problems),
    eidDates: dateList(env, 'EID_DATES', DEFAULT_CALENDAR.eidDates, problems),
    extraHolidays: dateList(env, 'EXTRA_HOLIDAYS', DEFAULT_CALENDAR.extraHolidays, problems),
  };
  try {
    return validateCalendarConfig(cfg);
  } catch (err) {
    problems.push(`calendar: ${(err as Error).message}`);
    return DEFAULT_CALENDAR;
  }
}

const DEFAULT_RETRY_SCHEDULE_S = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

function webhooks(env: Env, problems: string[]): Config['webhooks'] {
  let schedule = DEFAULT_RETRY_SCHEDULE_S;
  if (env.WEBHOOK_RETRY_SCHEDULE) {
    const parsed = env.WEBHOOK_RETRY_SCHEDULE.split(',').map((x) => Number(x.trim()));
    if (parsed.some((x) => !Number.isFinite(x) || x < 0)) problems.push('WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds, e.g. 5,300,1800');
    else schedule = parsed;
  }
  return {
    dispatcher: (env.WEBHOOK_DISPATCHER ?? 'on') !== 'off',
    retryScheduleMs: schedule.map((s) => Math.round(s * 1000)),
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 60_000, problems),
    localDestinations: onOff(env, 'WEBHOOK_LOCAL_DESTINATIONS', problems),
    concurrency: int(env, 'WEBHOOK_CONCURRENCY', 32, 1, 1000, problems),
    perEndpointConcurrency: int(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 4, 1, 100, problems),
    pollMs: int(env, 'WEBHOOK_POLL_MS', 250, 10, 60_000, problems),
  };
}

function payments(env: Env, problems: string[]): Config['payments'] {
  const checkoutExpiryMinutes = int(env, 'CHECKOUT_EXPIRY_MINUTES', 30, 1, 1440, problems);
  const sandboxForProduction = onOff(env, 'SANDBOX_PAYMENTS_FOR_PRODUCTION', problems);
  const wanted = env.PAYMENT_GATEWAY || (env.HUBTEL_API_ID ? 'hubtel' : 'sandbox');
  if (wanted !== 'sandbox' && wanted !== 'hubtel') {
    problems.push('PAYMENT_GATEWAY must be sandbox or hubtel');
    return { gateway: 'sandbox', sandboxForProduction, checkoutExpiryMinutes, hubtel: undefined };
  }
  if (wanted === 'sandbox') return { gateway: 'sandbox', sandboxForProduction, checkoutExpiryMinutes, hubtel: undefined };
  const missing = ['HUBTEL_API_ID', 'HUBTEL_API_KEY', 'HUBTEL_MERCHANT_ACCOUNT'].filter((n) => !env[n]);
  if (missing.length > 0) problems.push(`PAYMENT_GATEWAY=hubtel needs ${missing.join(', ')}`);
  return {
    gateway: 'hubtel',
    sandboxForProduction,
    checkoutExpiryMinutes,
    hubtel: {
      apiId: env.HUBTEL_API_ID ?? '',
      apiKey: env.HUBTEL_API_KEY ?? '',
      merchantAccountNumber: env.HUBTEL_MERCHANT_ACCOUNT ?? '',
      checkoutBaseUrl: (env.HUBTEL_CHECKOUT_URL || 'https://payproxyapi.hubtel.com').replace(/\/+$/, ''),
      statusBaseUrl: (env.HUBTEL_STATUS_URL || 'https://api-txnstatus.hubtel.com').replace(/\/+$/, ''),
      timeoutMs: int(env, 'HUBTEL_TIMEOUT_MS', 10_000, 100, 60_000, problems),
    },
  };
}

/** Reads and validates the whole configuration once; every problem is reported together. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const port = int(env, 'PORT', 8080, 0, 65535, problems);
  const dataDir = resolve(env.DATA_DIR || 'data');
  const adminToken = env.ADMIN_TOKEN || undefined;
  if (adminToken !== undefined && adminToken.length < 16) problems.push('ADMIN_TOKEN must be at least 16 characters');
  const authCacheTtlMs = int(env, 'AUTH_CACHE_TTL_MS', 2000, 0, 5000, problems);
  const config: Config = {
    port,
    host: env.HOST || '0.0.0.0',
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    services: services(env, problems),
    dataDir,
    database: database(env, dataDir, problems),
    redisUrl: env.REDIS_URL || undefined,
    adminToken,
    secretsKey: secretsKey(env, problems),
    logLevel: env.LOG_LEVEL || 'info',
    rateLimits: {
      readsPerMinute: int(env, 'RATE_LIMIT_READS_PER_MINUTE', 600, 1, 1_000_000, problems),
      writesPerMinute: int(env, 'RATE_LIMIT_WRITES_PER_MINUTE', 120, 1, 1_000_000, problems),
    },
    authCacheTtlMs,
    nonceTtlSeconds: int(env, 'NONCE_TTL_SECONDS', 600, 600, 86_400, problems),
    clockSkewSeconds: 300,
    bodyLimitBytes: 1024 * 1024,
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 120_000, problems),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 500, 300_000, problems),
    maxConnections: int(env, 'MAX_CONNECTIONS', 10_000, 1, 1_000_000, problems),
    // On by default for the embedded development database only.
    sandboxQuickstart: (env.SANDBOX_QUICKSTART ?? (env.DATABASE_URL ? 'off' : 'on')) === 'on',
    delivery: {
      pricing: pricing(env, problems),
      calendar: calendar(env, problems),
      areaRadiusKm: int(env, 'AREA_RADIUS_KM', 15, 1, 100, problems),
      sandboxCourierStepSeconds: int(env, 'SANDBOX_COURIER_STEP_SECONDS', 30, 0, 86_400, problems),
      refundIntervalMs: int(env, 'REFUND_INTERVAL_MS', 2000, 0, 3_600_000, problems),
    },
    webhooks: webhooks(env, problems),
    payments: payments(env, problems),
  };
  if (env.REDIS_URL && !/^rediss?:\/\//.test(env.REDIS_URL)) problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}
