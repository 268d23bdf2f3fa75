/** The headline suite's measures, variants, settings and result shapes (bench/suites/headline.ts). */
import type { WebhookFigures } from '../../lib/hook-measures.ts';
import type { ThroughputResult } from '../../lib/load.ts';
import type { MeasureProfile } from '../../lib/measure-profiles.ts';
import { round } from '../../lib/stats.ts';

export const SAFE = '/api/v1/safe-catalog';
export const DEFAULT_DURATION_S = 5;
export const DEFAULT_CONNECTIONS = 20;
export const WALLET_CLIENTS = 50;
export const DEFAULT_BASELINE_POOL = 20;
/** A variant's ratio may be at most this much lower than the reference variant's (issue 14: "within 15%"). */
export const RELATIVE_TARGET = 0.85;
/** The most one top-up may carry (wallet.topup.initiate); the shared wallet is topped up again below half. */
export const SHARED_TOPUP_GHS = 1_000_000;
export const SPREAD_TOPUP_GHS = 100_000;
/**
 * The rate a warm-up's requests are prepared for: a warm-up has no earlier figure to go by, and a
 * generator process that runs out of requests fails the run, so this is the bare no-op's rate on a
 * quiet 2-core machine (issue 30: 20-21k req/s), which no other route reaches. Preparing them
 * (signing, for the platform) takes the driver a fraction of a second before each slice.
 */
export const WARMUP_RPS = 20_000;
/** The longest the bench waits after a platform run for the webhook outbox to drain. */
export const SETTLE_MAX_MS = 30_000;

export type MeasureKey = 'health' | 'get' | 'create' | 'track' | 'catalog' | 'wallet';

export interface MeasureSpec {
  key: MeasureKey;
  label: string;
  baseline: string;
  platform: string;
  target: number;
}

export const MEASURES: MeasureSpec[] = [
  {
    key: 'health',
    label: 'signed health / bare no-op',
    baseline: 'bare GET /noop',
    platform: 'signed GET delivery/health',
    target: 0.75,
  },
  {
    key: 'get',
    label: 'signed orders.get / bare PK select',
    baseline: 'bare GET /orders/:id',
    platform: 'signed orders.get',
    target: 0.75,
  },
  {
    key: 'create',
    label: 'signed orders.create (recipient pays) / bare insert',
    baseline: 'bare POST /orders',
    platform: 'signed orders.create',
    target: 0.6,
  },
  {
    key: 'track',
    label: 'signed orders.track / bare tracking select',
    baseline: 'bare GET /orders/:id/track',
    platform: 'signed orders.track',
    target: 0.6,
  },
  {
    key: 'catalog',
    label: 'signed catalog.list (50) / bare page + variants',
    baseline: 'bare GET /catalog?limit=50',
    platform: 'signed safe-catalog catalog.list?limit=50',
    target: 0.6,
  },
  {
    key: 'wallet',
    label: `wallet create, ${WALLET_CLIENTS} clients: 1 wallet / ${WALLET_CLIENTS} wallets`,
    baseline: `wallet-funded create on ${WALLET_CLIENTS} wallets`,
    platform: 'wallet-funded create on 1 wallet',
    target: 0.6,
  },
];

export type VariantKey = 'postgres' | 'postgres+redis' | 'postgres+info' | 'embedded';

export interface Variant {
  key: VariantKey;
  db: 'postgres' | 'embedded';
  redis: boolean;
  logLevel: 'warn' | 'info';
  /** Targets are within 15% of this variant's ratios instead of the absolute ones. */
  reference?: VariantKey;
  /** No targets (embedded: "report the same ratios; no target, but no regression"). */
  reportOnly?: boolean;
  webhooks: boolean;
  title: string;
}

export const VARIANTS: Variant[] = [
  {
    key: 'postgres',
    db: 'postgres',
    redis: false,
    logLevel: 'warn',
    webhooks: true,
    title: 'PostgreSQL, LOG_LEVEL=warn, in-process replay/rate-limit store',
  },
  {
    key: 'postgres+redis',
    db: 'postgres',
    redis: true,
    logLevel: 'warn',
    reference: 'postgres',
    webhooks: false,
    title: 'PostgreSQL + Redis (REDIS_URL), LOG_LEVEL=warn',
  },
  {
    key: 'postgres+info',
    db: 'postgres',
    redis: false,
    logLevel: 'info',
    reference: 'postgres',
    webhooks: false,
    title: 'PostgreSQL, LOG_LEVEL=info (one log line per request)',
  },
  {
    key: 'embedded',
    db: 'embedded',
    redis: false,
    logLevel: 'warn',
    reportOnly: true,
    webhooks: true,
    title: 'embedded PGlite in memory, LOG_LEVEL=warn',
  },
];

export interface Settings {
  durationS: number;
  warmupS: number;
  connections: number;
  baselinePool: number;
  variants: Variant[];
  /** Where each variant's per-measure CPU profiles go (--cpu-prof DIR, or BENCH_PROFILE=1); none when unset. */
  profileDir: string | undefined;
}

export interface RunFigures {
  rps: number;
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuUsPerReq: number | null;
}

export interface PairResult {
  measure: MeasureKey;
  label: string;
  baselineRoute: string;
  platformRoute: string;
  connections: number;
  baseline: [RunFigures, RunFigures];
  platform: RunFigures;
  /** Platform req/s ÷ the mean of the two baseline runs. */
  ratio: number;
  /** Second baseline run ÷ first − 1. */
  drift: number;
  target: number | null;
  targetNote: string;
  pass: boolean | null;
  signedInline: number;
  /** After the platform run: webhook events already due when it ended (capped at 200), and how long until none were. */
  backlogAfterPlatform: Drain;
}

export interface Drain {
  pending: number;
  ms: number;
}

export interface VariantResult {
  variant: VariantKey;
  title: string;
  baseline: string;
  pairs: PairResult[];
  webhooks: WebhookFigures | null;
  /** Per measure, the platform's CPU profile of its timed run (profiled runs only). */
  profiles: MeasureProfile[] | null;
  otherCores: number | null;
  seconds: number;
}

export const figures = (t: ThroughputResult): RunFigures => ({
  rps: round(t.rps, 1),
  requests: t.requests,
  seconds: round(t.seconds, 2),
  p50Ms: round(t.p50, 3),
  p99Ms: round(t.p99, 3),
  serverCpuUsPerReq: t.serverCpuUsPerReq === undefined ? null : round(t.serverCpuUsPerReq, 1),
});

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
