/**
 * `npm run bench [-- --scenario embedded|postgres|all] [--duration SECONDS] [--rounds N] [--requests N]
 *   [--concurrency N] [--cpu-prof DIR]`
 *
 * Measures what the signed-request pipeline (key lookup, HMAC, nonce, rate limit) costs, against a
 * baseline on the same server in the same run: the signed `GET /api/v1/delivery/health` and the
 * unauthenticated `GET /readyz` both run `select 1`. A benchmark, not a test: it exits 0 when
 * targets are missed and non-zero only when the bench itself failed (server did not start,
 * non-2xx answers, network errors).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { dropRedisKeys, dropSchema, POSTGRES_URL, probeBackends, REDIS_URL } from './lib/backends.ts';
import { LoadGenerator, signedRoute, type Route } from './lib/load.ts';
import { printSummary, summarise, type RouteRounds, type ScenarioSummary, type Targets } from './lib/report.ts';
import { round } from './lib/stats.ts';
import { BENCH_RATE_LIMIT, createPartnerKey, machineCpuMs, startServer, type BenchServer } from './lib/server.ts';

const { values: args } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'all' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    requests: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    // Writes a V8 CPU profile of each server (both routes mixed) into this directory.
    'cpu-prof': { type: 'string' },
  },
});

function positive(name: string, raw: string | undefined): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number (got "${raw}")`);
  return n;
}

const scenarioArg = args.scenario ?? 'all';
if (!['embedded', 'postgres', 'all'].includes(scenarioArg)) {
  console.error(`--scenario must be embedded, postgres or all (got "${scenarioArg}")`);
  process.exit(2);
}
const DURATION_S = positive('duration', args.duration);
const ROUNDS = Math.round(positive('rounds', args.rounds));
const REQUESTS = Math.round(positive('requests', args.requests));
const CONCURRENCY = Math.round(positive('concurrency', args.concurrency));
const WARMUP_REQUESTS = 500;
const WARMUP_SECONDS = Math.min(2, DURATION_S);

const BASELINE_PATH = '/readyz';
const SIGNED_PATH = '/api/v1/delivery/health';

interface Scenario {
  name: 'embedded' | 'postgres';
  title: string;
  targets: Targets;
  notes: string[];
  env: Record<string, string>;
}

// Cleanups (stop servers, drop the schema, remove Redis keys) run once, also on Ctrl-C or errors.
const pending = new Set<() => Promise<void>>();
async function runCleanups(): Promise<void> {
  for (const fn of [...pending].reverse()) {
    pending.delete(fn);
    await fn().catch((err: unknown) => console.error(`cleanup failed: ${(err as Error).message}`));
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the bench servers`);
    void runCleanups().finally(() => process.exit(130));
  });
}

function checkFailures(load: LoadGenerator, phase: string): void {
  if (load.failures.count > 0) {
    throw new Error(`${load.failures.count} non-2xx answer(s) during ${phase}, e.g.:\n  ${load.failures.samples.join('\n  ')}`);
  }
}

async function measure(scenario: Scenario, server: BenchServer): Promise<ScenarioSummary> {
  const key = await createPartnerKey(server);
  if (scenario.name === 'postgres') {
    const cleanKeys = async () => {
      const removed = await dropRedisKeys(key.keyId);
      console.log(`  removed ${removed} bench key(s) from Redis`);
    };
    pending.add(cleanKeys);
  }
  const baseline: Route = { label: `GET ${BASELINE_PATH} (baseline)`, path: BASELINE_PATH, signer: null };
  const signed = signedRoute(`GET ${SIGNED_PATH} (signed)`, SIGNED_PATH, key, server.url);
  const load = new LoadGenerator(server.port, CONCURRENCY, server.cpuMs);
  try {
    // Warm-up: JIT, connection pools, the key cache; also the expected rates for header batches.
    await load.latency([baseline, signed], WARMUP_REQUESTS);
    let expected = (await load.throughput([baseline, signed], WARMUP_SECONDS, [20_000, 20_000])).map((t) => t.rps);
    checkFailures(load, 'warm-up');

    const rounds: Record<'baseline' | 'signed', RouteRounds> = {
      baseline: { label: baseline.label, latency: [], throughput: [] },
      signed: { label: signed.label, latency: [], throughput: [] },
    };
    // Within a round the routes are interleaved (see LoadGenerator); which one leads alternates per round.
    for (let r = 0; r < ROUNDS; r++) {
      const flip = r % 2 === 1;
      const pair = flip ? [signed, baseline] : [baseline, signed];
      const unflip = <T>([a, b]: T[]): [T, T] => (flip ? [b!, a!] : [a!, b!]);
      const [bl, sl] = unflip(await load.latency(pair, REQUESTS));
      const [bt, st] = unflip(await load.throughput(pair, DURATION_S, flip ? [expected[1]!, expected[0]!] : expected));
      rounds.baseline.latency.push(bl);
      rounds.signed.latency.push(sl);
      rounds.baseline.throughput.push(bt);
      rounds.signed.throughput.push(st);
      expected = [Math.max(expected[0]!, bt.rps), Math.max(expected[1]!, st.rps)];
      checkFailures(load, `round ${r + 1}`);
      console.log(
        `  round ${r + 1}/${ROUNDS}: p50 ${bl.p50.toFixed(3)} vs ${sl.p50.toFixed(3)} ms, ` +
          `${bt.rps.toFixed(0)} vs ${st.rps.toFixed(0)} req/s (baseline vs signed)`,
      );
    }
    return summarise({ name: scenario.name, title: scenario.title, notes: scenario.notes, targets: scenario.targets, ...rounds });
  } finally {
    load.close();
  }
}

async function runScenario(scenario: Scenario): Promise<ScenarioSummary> {
  console.log(`\n-- ${scenario.name}: starting the server (${scenario.title})`);
  const profile = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${resolve(args['cpu-prof'], scenario.name)}`] : [];
  const server = await startServer(scenario.env, profile);
  const stop = () => server.stop();
  pending.add(stop);
  try {
    console.log(`  server pid ${server.pid} on ${server.url}; ${ROUNDS} rounds of ${REQUESTS} sequential requests and ${DURATION_S} s at concurrency ${CONCURRENCY} per route, interleaved`);
    // CPU used by anything other than the bench client and the server while the scenario ran.
    const machine0 = machineCpuMs();
    const server0 = server.cpuMs();
    const client0 = process.cpuUsage();
    const t0 = performance.now();
    const summary = await measure(scenario, server);
    const wallMs = performance.now() - t0;
    const machine1 = machineCpuMs();
    const server1 = server.cpuMs();
    const client = process.cpuUsage(client0);
    if (machine0 !== undefined && machine1 !== undefined && server0 !== undefined && server1 !== undefined) {
      const otherMs = machine1 - machine0 - (server1 - server0) - (client.user + client.system) / 1000;
      const otherCores = Math.max(0, otherMs / wallMs);
      const busy = scenario.name === 'embedded' ? otherCores > 0.15 : false;
      summary.notes = [
        ...summary.notes,
        `other processes used ${otherCores.toFixed(2)} of ${availableParallelism()} cores during the run` +
          (scenario.name === 'postgres' ? ' (including PostgreSQL and Redis serving the bench)' : '') +
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
  pending.add(async () => {
    await dropSchema(schema);
    console.log(`  dropped schema ${schema}`);
  });
  return scenario;
}

async function main(): Promise<number> {
  const cpuModel = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`signed-request pipeline benchmark: node ${process.version}, ${availableParallelism()} cores (${cpuModel})`);
  console.log(`bench client shares the machine with the server; partner rate limit set to ${BENCH_RATE_LIMIT}/min so the limiter counts but never refuses`);
  const results: Array<ScenarioSummary | { scenario: string; skipped: string }> = [];
  let failed = false;

  if (scenarioArg === 'embedded' || scenarioArg === 'all') results.push(await runScenario(embeddedScenario()));
  if (scenarioArg === 'postgres' || scenarioArg === 'all') {
    const problem = await probeBackends();
    if (problem) {
      console.log(`\n-- postgres: skipped (PostgreSQL + Redis needed): ${problem}`);
      results.push({ scenario: 'postgres', skipped: problem });
      // Asked for explicitly and nothing was measured: that is a failed run.
      if (scenarioArg === 'postgres') failed = true;
    } else {
      results.push(await runScenario(postgresScenario()));
    }
  }

  for (const r of results) if (!('skipped' in r)) printSummary(r);
  for (const r of results) if ('skipped' in r) console.log(`\nskipped: ${r.scenario}: ${r.skipped}`);

  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  // A profiled run is slowed by the profiler: keep its figures apart from the real ones.
  const file = `${dir}${args['cpu-prof'] ? 'profiled' : 'latest'}.json`;
  const output = {
    generatedAt: new Date().toISOString(),
    node: process.version,
    cores: availableParallelism(),
    cpu: cpuModel,
    settings: {
      rounds: ROUNDS,
      sequentialRequests: REQUESTS,
      throughputSeconds: DURATION_S,
      concurrency: CONCURRENCY,
      warmupRequests: WARMUP_REQUESTS,
      warmupSeconds: WARMUP_SECONDS,
      partnerRateLimitPerMinute: BENCH_RATE_LIMIT,
      baseline: `GET ${BASELINE_PATH}`,
      signed: `GET ${SIGNED_PATH}`,
    },
    scenarios: results,
  };
  writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
  console.log(`\nresults written to ${file}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  async (err: unknown) => {
    console.error(`\nbench failed: ${err instanceof Error ? err.message : String(err)}`);
    await runCleanups();
    process.exit(1);
  },
);
