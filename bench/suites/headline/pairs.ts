/** One measure's pair of servers: warm-ups, then baseline → platform → baseline, and the waits between. */
import { performance } from 'node:perf_hooks';
import {
  expectedRate,
  type LoadGenerator,
  type Route,
  type Signer,
  type ThroughputResult,
} from '../../lib/load.ts';
import type { MeasureProfiler } from '../../lib/measure-profiles.ts';
import { checkFailures } from '../../lib/multi.ts';
import type { BenchPartner } from '../../lib/partner.ts';
import { admin, type BenchServer } from '../../lib/server.ts';
import { round } from '../../lib/stats.ts';
import {
  type Drain,
  figures,
  type MeasureSpec,
  type PairResult,
  SETTLE_MAX_MS,
  type Settings,
  sleep,
  WARMUP_RPS,
} from './spec.ts';

/**
 * Waits until the platform has no webhook event due (operator API, the same on PostgreSQL and
 * embedded), so that the dispatcher's catch-up after a run does not land on the next run.
 */
export async function drainOutbox(server: BenchServer): Promise<Drain> {
  const t0 = performance.now();
  let pending: number | undefined;
  while (performance.now() - t0 < SETTLE_MAX_MS) {
    const { deliveries } = await admin<{ deliveries: Array<{ next_attempt_at: string | null }> }>(
      server,
      'GET',
      '/webhooks/deliveries?status=pending&limit=200',
      undefined,
    );
    const now = Date.now();
    const due = deliveries.filter(
      (d) => d.next_attempt_at !== null && Date.parse(d.next_attempt_at) <= now,
    ).length;
    pending ??= due;
    if (due === 0) break;
    await sleep(100);
  }
  const ms = performance.now() - t0;
  await sleep(200);
  return { pending: pending ?? 0, ms: round(ms, 0) };
}

/** One signer rotating over several partners' keys: each request is another partner's (another wallet). */
export function rotating(partners: readonly BenchPartner[]): Signer {
  let i = 0;
  return {
    signHeaders: (method, url, body) =>
      partners[i++ % partners.length]!.client.signHeaders(method, url, body),
  };
}

/** One closed-loop run of a single route; a non-2xx answer fails the bench. */
export async function runOnce(
  load: LoadGenerator,
  route: Route,
  seconds: number,
  expectedRps: number,
  phase: string,
): Promise<ThroughputResult> {
  const [t] = await load.throughput([route], seconds, [expectedRps]);
  checkFailures(load, phase);
  return t!;
}

export interface Side {
  load: LoadGenerator;
  route: Route;
  /** Waits for the server's background work after a run (the platform's webhook outbox). */
  settle: () => Promise<Drain>;
  /** Profiles the timed run of this side (the platform's, with --cpu-prof or BENCH_PROFILE=1). */
  profiler?: MeasureProfiler | undefined;
}

/** Warm-up of both sides, then baseline → platform → baseline. */
export async function measurePair(
  spec: MeasureSpec,
  base: Side,
  plat: Side,
  cfg: Settings,
  connections: number,
): Promise<Omit<PairResult, 'target' | 'targetNote' | 'pass'>> {
  const bw = await runOnce(
    base.load,
    base.route,
    cfg.warmupS,
    WARMUP_RPS,
    `${spec.key} baseline warm-up`,
  );
  await base.settle();
  const pw = await runOnce(
    plat.load,
    plat.route,
    cfg.warmupS,
    WARMUP_RPS,
    `${spec.key} platform warm-up`,
  );
  await plat.settle();
  const b1 = await runOnce(
    base.load,
    base.route,
    cfg.durationS,
    expectedRate(bw.rps),
    `${spec.key} baseline (1st)`,
  );
  await base.settle();
  await plat.profiler?.start();
  const p = await runOnce(
    plat.load,
    plat.route,
    cfg.durationS,
    // The platform's own warm-up can understate it several times over (embedded, while the
    // dispatcher drains the seeding's events); its bare equivalent's rate is the likelier ceiling.
    expectedRate(Math.max(pw.rps, bw.rps)),
    `${spec.key} platform`,
  );
  await plat.profiler?.stop(spec.key);
  const backlog = await plat.settle();
  const b2 = await runOnce(
    base.load,
    base.route,
    cfg.durationS,
    expectedRate(Math.max(bw.rps, b1.rps)),
    `${spec.key} baseline (2nd)`,
  );
  await base.settle();
  const ratio = p.rps / ((b1.rps + b2.rps) / 2);
  console.log(
    `  ${spec.key}: ${b1.rps.toFixed(0)} → ${p.rps.toFixed(0)} → ${b2.rps.toFixed(0)} req/s (baseline, platform, baseline): ratio ${ratio.toFixed(2)}`,
  );
  return {
    measure: spec.key,
    label: spec.label,
    baselineRoute: spec.baseline,
    platformRoute: spec.platform,
    connections,
    baseline: [figures(b1), figures(b2)],
    platform: figures(p),
    ratio: round(ratio, 3),
    drift: round(b2.rps / b1.rps - 1, 3),
    signedInline: b1.signedInline + p.signedInline + b2.signedInline,
    backlogAfterPlatform: backlog,
  };
}
