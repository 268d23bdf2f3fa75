/**
 * Suite `pipeline` (the default): what the signed-request pipeline (key lookup, HMAC, nonce, rate
 * limit) costs, against a baseline on the same server in the same run: the signed
 * `GET /api/v1/delivery/health` and the unauthenticated `GET /readyz` both run `select 1`.
 * Options: --scenario embedded|postgres|all, --duration SECONDS, --rounds N, --requests N,
 * --concurrency N, --cpu-prof DIR.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import {
  dropRedisKeys,
  dropSchema,
  POSTGRES_URL,
  probeBackends,
  REDIS_URL,
} from '../lib/backends.ts';
import { onCleanup, runCleanups } from '../lib/cleanup.ts';
import { LoadGenerator, signedRoute, type Route } from '../lib/load.ts';
import { positive, writeResults, type SuiteOptions } from '../lib/options.ts';
import {
  printSummary,
  summarise,
  type RouteRounds,
  type ScenarioSummary,
  type Targets,
} from '../lib/report.ts';
import { round } from '../lib/stats.ts';
import {
  BENCH_RATE_LIMIT,
  createPartnerKey,
  machineCpuMs,
  startServer,
  type BenchServer,
} from '../lib/server.ts';

interface Settings {
  scenario: 'embedded' | 'postgres' | 'all';
  durationS: number;
  rounds: number;
  requests: number;
  concurrency: number;
  warmupSeconds: number;
  cpuProf: string | undefined;
}

const WARMUP_REQUESTS = 500;

const BASELINE_PATH = '/readyz';
const SIGNED_PATH = '/api/v1/delivery/health';

interface Scenario {
  name: 'embedded' | 'postgres';
  title: string;
  targets: Targets;
  notes: string[];
  env: Record<string, string>;
}

function checkFailures(load: LoadGenerator, phase: string): void {
  if (load.failures.count > 0) {
    throw new Error(
      `${load.failures.count} non-2xx answer(s) during ${phase}, e.g.:\n  ${load.failures.samples.join('\n  ')}`,
    );
  }
}

async function measure(
  cfg: Settings,
  scenario: Scenario,
  server: BenchServer,
): Promise<ScenarioSummary> {
  const key = await createPartnerKey(server);
  if (scenario.name === 'postgres') {
    const cleanKeys = async () => {
      const removed = await dropRedisKeys(key.keyId);
      console.log(`  removed ${removed} bench key(s) from Redis`);
    };
    onCleanup(cleanKeys);
  }
  const baseline: Route = {
    label: `GET ${BASELINE_PATH} (baseline)`,
    path: BASELINE_PATH,
    signer: null,
  };
  const signed = signedRoute(`GET ${SIGNED_PATH} (signed)`, SIGNED_PATH, key, server.url);
  const load = new LoadGenerator(server.port, cfg.concurrency, server.cpuMs);
  try {
    // Warm-up: JIT, connection pools, the key cache; also the expected rates for header batches.
    await load.latency([baseline, signed], WARMUP_REQUESTS);
    let expected = (
      await load.throughput([baseline, signed], cfg.warmupSeconds, [20_000, 20_000])
    ).map((t) => t.rps);
    checkFailures(load, 'warm-up');

    const rounds: Record<'baseline' | 'signed', RouteRounds> = {
      baseline: { label: baseline.label, latency: [], throughput: [] },
      signed: { label: signed.label, latency: [], throughput: [] },
    };
    // Within a round the routes are interleaved (see LoadGenerator); which one leads alternates per round.
    for (let r = 0; r < cfg.rounds; r++) {
      const flip = r % 2 === 1;
      const pair = flip ? [signed, baseline] : [baseline, signed];
      const unflip = <T>([a, b]: T[]): [T, T] => (flip ? [b!, a!] : [a!, b!]);
      const [bl, sl] = unflip(await load.latency(pair, cfg.requests));
      const [bt, st] = unflip(
        await load.throughput(pair, cfg.durationS, flip ? [expected[1]!, expected[0]!] : expected),
      );
      rounds.baseline.latency.push(bl);
      rounds.signed.latency.push(sl);
      rounds.baseline.throughput.push(bt);
      rounds.signed.throughput.push(st);
      expected = [Math.max(expected[0]!, bt.rps), Math.max(expected[1]!, st.rps)];
      checkFailures(load, `round ${r + 1}`);
      console.log(
        `  round ${r + 1}/${cfg.rounds}: p50 ${bl.p50.toFixed(3)} vs ${sl.p50.toFixed(3)} ms, ` +
          `${bt.rps.toFixed(0)} vs ${st.rps.toFixed(0)} req/s (baseline vs signed)`,
      );
    }
    return summarise({
      name: scenario.name,
      title: scenario.title,
      notes: scenario.notes,
      targets: scenario.targets,
      ...rounds,
    });
  } finally {
    load.close();
  }
}

async function runScenario(cfg: Settings, scenario: Scenario): Promise<ScenarioSummary> {
  console.log(`\n-- ${scenario.name}: starting the server (${scenario.title})`);
  const profile = cfg.cpuProf
    ? ['--cpu-prof', `--cpu-prof-dir=${resolve(cfg.cpuProf, 'pipeline', scenario.name)}`]
    : [];
  const server = await startServer(scenario.env, profile);
  const stop = () => server.stop();
  onCleanup(stop);
  try {
    console.log(
      `  server pid ${server.pid} on ${server.url}; ${cfg.rounds} rounds of ${cfg.requests} sequential requests and ${cfg.durationS} s at concurrency ${cfg.concurrency} per route, interleaved`,
    );
    // CPU used by anything other than the bench client and the server while the scenario ran.
    const machine0 = machineCpuMs();
    const server0 = server.cpuMs();
    const client0 = process.cpuUsage();
    const t0 = performance.now();
    const summary = await measure(cfg, scenario, server);
    const wallMs = performance.now() - t0;
    const machine1 = machineCpuMs();
    const server1 = server.cpuMs();
    const client = process.cpuUsage(client0);
    if (
      machine0 !== undefined &&
      machine1 !== undefined &&
      server0 !== undefined &&
      server1 !== undefined
    ) {
      const otherMs =
        machine1 - machine0 - (server1 - server0) - (client.user + client.system) / 1000;
      const otherCores = Math.max(0, otherMs / wallMs);
      const busy = scenario.name === 'embedded' ? otherCores > 0.15 : false;
      summary.notes = [
        ...summary.notes,
        `other processes used ${otherCores.toFixed(2)} of ${availableParallelism()} cores during the run` +
          (scenario.name === 'postgres'
            ? ' (including PostgreSQL and Redis serving the bench)'
            : '') +
          (busy ? ': the machine was shared, figures are noisy' : ''),
      ];
      return { ...summary, otherProcessesCores: round(otherCores, 2) };
    }
    return summary;
  } catch (err) {
    const tail = server.output().trim();
    if (tail) console.error(`server output (tail):\n${tail}`);
    throw err;
  } finally {
    await runCleanups();
  }
}

function embeddedScenario(): Scenario {
  return {
    name: 'embedded',
    title: 'in-process replay/rate-limit store, PGlite in memory (DATABASE_URL=memory:)',
    targets: { addedP50Ms: 0.3, throughputCostPct: 25 },
    notes: ['the baseline /readyz also pings the replay store, which is a no-op in-process.'],
    env: { DATABASE_URL: 'memory:' },
  };
}

function postgresScenario(): Scenario {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const scenario: Scenario = {
    name: 'postgres',
    title: `PostgreSQL (schema ${schema}, dropped afterwards) + Redis`,
    targets: { addedP50Ms: 0.5, throughputCostPct: 40 },
    notes: [
      'the baseline /readyz sends one Redis PING alongside its select 1 (in parallel), so it already pays part of ' +
        'a Redis round trip; the figures understate the signed route’s full Redis cost (one EVALSHA, then select 1).',
      'server CPU excludes the PostgreSQL and Redis processes, which share the same two cores.',
    ],
    env: { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, REDIS_URL },
  };
  // Registered before the server starts: it creates the schema on boot.
  onCleanup(async () => {
    await dropSchema(schema);
    console.log(`  dropped schema ${schema}`);
  });
  return scenario;
}

export async function runPipeline(opts: SuiteOptions): Promise<number> {
  const scenarioArg = opts.scenario ?? 'all';
  if (scenarioArg !== 'embedded' && scenarioArg !== 'postgres' && scenarioArg !== 'all') {
    throw new Error(`--scenario must be embedded, postgres or all (got "${scenarioArg}")`);
  }
  const durationS = positive('duration', opts.duration, 5);
  const cfg: Settings = {
    scenario: scenarioArg,
    durationS,
    rounds: Math.round(positive('rounds', opts.rounds, 3)),
    requests: Math.round(positive('requests', opts.requests, 2000)),
    concurrency: Math.round(positive('concurrency', opts.concurrency, 16)),
    warmupSeconds: Math.min(2, durationS),
    cpuProf: opts.cpuProf,
  };
  const cpuModel = cpus()[0]?.model ?? 'unknown CPU';
  console.log(
    `signed-request pipeline benchmark: node ${process.version}, ${availableParallelism()} cores (${cpuModel})`,
  );
  console.log(
    `bench client shares the machine with the server; partner rate limit set to ${BENCH_RATE_LIMIT}/min so the limiter counts but never refuses`,
  );
  const results: Array<ScenarioSummary | { scenario: string; skipped: string }> = [];
  let failed = false;

  if (scenarioArg === 'embedded' || scenarioArg === 'all')
    results.push(await runScenario(cfg, embeddedScenario()));
  if (scenarioArg === 'postgres' || scenarioArg === 'all') {
    const problem = await probeBackends();
    if (problem) {
      console.log(`\n-- postgres: skipped (PostgreSQL + Redis needed): ${problem}`);
      results.push({ scenario: 'postgres', skipped: problem });
      // Asked for explicitly and nothing was measured: that is a failed run.
      if (scenarioArg === 'postgres') failed = true;
    } else {
      results.push(await runScenario(cfg, postgresScenario()));
    }
  }

  for (const r of results) if (!('skipped' in r)) printSummary(r);
  for (const r of results)
    if ('skipped' in r) console.log(`\nskipped: ${r.scenario}: ${r.skipped}`);

  // A profiled run is slowed by the profiler: writeResults keeps its figures apart from the real ones.
  const file = writeResults('pipeline', Boolean(cfg.cpuProf), {
    settings: {
      rounds: cfg.rounds,
      sequentialRequests: cfg.requests,
      throughputSeconds: cfg.durationS,
      concurrency: cfg.concurrency,
      warmupRequests: WARMUP_REQUESTS,
      warmupSeconds: cfg.warmupSeconds,
      partnerRateLimitPerMinute: BENCH_RATE_LIMIT,
      baseline: `GET ${BASELINE_PATH}`,
      signed: `GET ${SIGNED_PATH}`,
    },
    scenarios: results,
  });
  console.log(`\nresults written to ${file}`);
  return failed ? 1 : 0;
}
