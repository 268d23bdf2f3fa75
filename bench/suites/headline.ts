/**
 * Suite `headline` (the default; issue 14): the platform as a ratio of a bare Fastify + pg server
 * (bench/baseline/server.ts: no auth, no validation, no business logic) doing the same database
 * work, measured in the same run, on the same machine, with the same load generator:
 *
 *   signed delivery.health                     / bare GET /noop            (target ≥ 0.75)
 *   signed orders.get                          / bare primary-key select   (target ≥ 0.75)
 *   signed orders.create, recipient pays       / bare single-row insert    (target ≥ 0.6)
 *   signed orders.track                        / bare tracking select      (target ≥ 0.6)
 *   signed catalog.list, limit 50              / bare page + its variants  (target ≥ 0.6)
 *   wallet-funded create, 50 clients, 1 wallet / the same on 50 wallets    (target ≥ 0.6)
 *
 * Each measure runs baseline → platform → baseline again (the wallet one: 50 wallets → 1 wallet →
 * 50 wallets), each for the run duration at 20 connections (50 clients for the wallet measure), and
 * the ratio is the platform's req/s over the mean of the two baseline runs; the two baseline runs
 * are printed side by side so that drift during the measure shows.
 *
 * Variants (each a fresh platform process; the bare server is shared by the PostgreSQL ones):
 *   postgres        PostgreSQL, LOG_LEVEL=warn (nothing logged per request), in-process replay/rate-limit store
 *   postgres+redis  the same with REDIS_URL        (target: each ratio within 15% of postgres's)
 *   postgres+info   the same with LOG_LEVEL=info   (target: each ratio within 15% of postgres's)
 *   embedded        PGlite in memory, against a bare Fastify + PGlite baseline (reported, no target)
 * plus, on postgres and embedded, the webhook measures (bench/lib/hook-measures.ts).
 *
 * Settings: --duration SECONDS or BENCH_DURATION (default 5) per run; --concurrency or
 * BENCH_CONNECTIONS (default 20); BENCH_VARIANTS=postgres,postgres+redis,postgres+info,embedded
 * (default all), also narrowed by --scenario embedded|postgres; BENCH_BASELINE_POOL_SIZE (default 20);
 * BENCH_PROFILE=1 or --cpu-prof DIR: each measure's timed platform run profiled (measure-profiles.ts).
 *
 * The parts: headline/spec.ts (measures, variants, shapes), headline/pairs.ts (one measure's pair),
 * headline/measures.ts (the six pairs), headline/variant.ts (one variant's platform), headline/report.ts
 * (verdicts, the previous run, the tables).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { POSTGRES_URL, probePostgres, probeRedis, REDIS_URL } from '../lib/backends.ts';
import { startBaseline } from '../lib/baseline.ts';
import { runCleanups } from '../lib/cleanup.ts';
import {
  checkGenerator,
  describeGeneratorCheck,
  type GeneratorCheck,
} from '../lib/generator-check.ts';
import { checkFloor, describeFloorCheck, type FloorCheck } from '../lib/floor-check.ts';
import { askedGenerators, useGenerators } from '../lib/generators.ts';
import { printMeasureProfile } from '../lib/measure-profiles.ts';
import { machine, positive, scenarios, writeResults, type SuiteOptions } from '../lib/options.ts';
import { BENCH_RATE_LIMIT } from '../lib/server.ts';
import { SEED_ROWS } from '../baseline/table.ts';
import {
  judge,
  NOTES,
  previousRun,
  printGlance,
  printVariant,
  printWebhooks,
} from './headline/report.ts';
import {
  DEFAULT_BASELINE_POOL,
  DEFAULT_CONNECTIONS,
  DEFAULT_DURATION_S,
  RELATIVE_TARGET,
  type Settings,
  VARIANTS,
  type VariantResult,
  WALLET_CLIENTS,
} from './headline/spec.ts';
import { runVariant } from './headline/variant.ts';

export async function runHeadline(opts: SuiteOptions): Promise<number> {
  const durationS = positive(
    'duration',
    opts.duration ?? process.env.BENCH_DURATION,
    DEFAULT_DURATION_S,
  );
  const wantedDbs = scenarios(opts.scenario);
  const keys = (process.env.BENCH_VARIANTS ?? VARIANTS.map((v) => v.key).join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = keys.filter((k) => !VARIANTS.some((v) => v.key === k));
  if (unknown.length > 0)
    throw new Error(
      `BENCH_VARIANTS: unknown ${unknown.join(', ')} (known: ${VARIANTS.map((v) => v.key).join(', ')})`,
    );
  const cfg: Settings = {
    durationS,
    warmupS: Math.min(2, Math.max(1, durationS / 4)),
    connections: Math.round(
      positive(
        'concurrency',
        opts.concurrency ?? process.env.BENCH_CONNECTIONS,
        DEFAULT_CONNECTIONS,
      ),
    ),
    baselinePool: Math.round(
      positive(
        'BENCH_BASELINE_POOL_SIZE',
        process.env.BENCH_BASELINE_POOL_SIZE,
        DEFAULT_BASELINE_POOL,
      ),
    ),
    variants: VARIANTS.filter((v) => keys.includes(v.key) && wantedDbs.includes(v.db)),
    profileDir:
      opts.cpuProf ??
      (process.env.BENCH_PROFILE === '1'
        ? fileURLToPath(new URL('../results/profiles/', import.meta.url))
        : undefined),
  };
  if (cfg.profileDir)
    console.log(
      `profiling: each measure's timed platform run is profiled (slower: the ratios are not the headline's; results go to headline.profiled.json), profiles under ${join(cfg.profileDir, 'headline')}`,
    );
  if (opts.rounds !== undefined || opts.requests !== undefined)
    console.log(
      'note: the headline suite runs baseline, platform, baseline once per measure; --rounds and --requests do not apply',
    );
  const m = machine();
  console.log(`headline benchmark (issue 14): node ${m.node}, ${m.cores} cores (${m.cpu})`);
  console.log(
    `${cfg.durationS} s per run (warm-up ${cfg.warmupS} s per side), ${cfg.connections} connections (${WALLET_CLIENTS} clients for the wallet measure), partner rate limits ${BENCH_RATE_LIMIT}/min; variants ${cfg.variants.map((v) => v.key).join(', ')}`,
  );

  const skipped: Array<{ variant: string; skipped: string }> = [];
  let failed = false;
  const pgVariants = cfg.variants.filter((v) => v.db === 'postgres');
  if (pgVariants.length > 0) {
    const pgProblem = await probePostgres().then(
      () => null,
      (err: Error) => `PostgreSQL at ${POSTGRES_URL} did not answer (${err.message})`,
    );
    const redisProblem = pgVariants.some((v) => v.redis)
      ? await probeRedis().then(
          () => null,
          (err: Error) => `Redis at ${REDIS_URL} did not answer (${err.message})`,
        )
      : null;
    for (const v of pgVariants) {
      const problem = pgProblem ?? (v.redis ? redisProblem : null);
      if (problem) skipped.push({ variant: v.key, skipped: problem });
    }
    // PostgreSQL asked for explicitly and nothing measured there: a failed run.
    if (opts.scenario === 'postgres' && skipped.length === pgVariants.length) failed = true;
  }
  const toRun = cfg.variants.filter((v) => !skipped.some((s) => s.variant === v.key));
  for (const s of skipped) console.log(`\n-- ${s.variant}: skipped: ${s.skipped}`);

  const prev = previousRun();
  const started = performance.now();
  const results: VariantResult[] = [];
  let generator: GeneratorCheck | undefined;
  let floor: FloorCheck | undefined;
  try {
    for (const db of ['postgres', 'embedded'] as const) {
      const group = toRun.filter((v) => v.db === db);
      if (group.length === 0) continue;
      const baseline = await startBaseline(db, cfg.baselinePool);
      try {
        // With BENCH_GENERATORS=0 the load comes from the driver, as asked: nothing to choose.
        if (!generator && askedGenerators() > 0) {
          generator = await checkGenerator(
            baseline,
            cfg.connections,
            cfg.durationS,
            askedGenerators(),
          );
          useGenerators(generator.processes);
          console.log(`\n${describeGeneratorCheck(generator)}`);
        }
        if (!floor) {
          floor = await checkFloor(cfg.connections, cfg.durationS, cfg.warmupS);
          console.log(describeFloorCheck(floor));
        }
        for (const v of group) {
          const r = await runVariant(v, baseline, cfg);
          results.push({ ...r, pairs: judge(v, r.pairs, results) });
        }
      } finally {
        await baseline.stop();
      }
    }
  } finally {
    await runCleanups();
  }

  for (const r of results) printVariant(r, prev);
  for (const r of results) for (const p of r.profiles ?? []) printMeasureProfile(r.variant, p);
  printWebhooks(results);
  printGlance(results);
  for (const s of skipped) console.log(`\nskipped: ${s.variant}: ${s.skipped}`);
  if (generator) console.log(`\n${describeGeneratorCheck(generator)}`);
  if (floor) console.log(describeFloorCheck(floor));
  console.log('');
  for (const n of NOTES) console.log(`note: ${n}`);
  if (prev)
    console.log(
      `note: "previous" is the run of ${prev.generatedAt} at commit ${prev.commit}${prev.durationS ? `, ${prev.durationS} s per run` : ''}.`,
    );
  const file = writeResults('headline', cfg.profileDir !== undefined, {
    settings: {
      durationSeconds: cfg.durationS,
      warmupSeconds: cfg.warmupS,
      connections: cfg.connections,
      walletClients: WALLET_CLIENTS,
      baselinePoolSize: cfg.baselinePool,
      platformPoolSize: 10,
      relativeTarget: RELATIVE_TARGET,
      seedRows: SEED_ROWS,
      partnerRateLimitPerMinute: BENCH_RATE_LIMIT,
      variants: cfg.variants.map((v) => v.key),
    },
    generator,
    floor,
    variants: results,
    skipped,
    notes: NOTES,
  });
  console.log(
    `\nresults written to ${file} (the whole suite took ${((performance.now() - started) / 60_000).toFixed(1)} min)`,
  );
  return failed ? 1 : 0;
}
