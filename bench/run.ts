/**
 * `npm run bench [-- --scenario embedded|postgres|all] [--duration SECONDS] [--rounds N] [--requests N]`
 *
 * Measures what the signed-request pipeline (key lookup, HMAC, nonce, rate limit) costs, against a
 * baseline on the same server in the same run: the signed `GET /api/v1/delivery/health` and the
 * unauthenticated `GET /readyz` both run `select 1`. A benchmark, not a test: it exits 0 when
 * targets are missed and non-zero only when the bench itself failed (server did not start,
 * non-2xx answers, network errors).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { dropRedisKeys, dropSchema, POSTGRES_URL, probeBackends, REDIS_URL } from './lib/backends.ts';
import { LoadGenerator, signedRoute, type Route } from './lib/load.ts';
import { printSummary, summarise, type RouteRounds, type ScenarioSummary, type Targets } from './lib/report.ts';
import { round } from './lib/stats.ts';
import { BENCH_RATE_LIMIT, createPartnerKey, startServer, type BenchServer } from './lib/server.ts';

const { values: args } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'all' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    requests: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
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
    // Warm-up: JIT, connection pools, the key cache; also the expected rate for header batches.
    const expected = new Map<Route, number>();
    for (const route of [baseline, signed]) {
      await load.latency(route, WARMUP_REQUESTS);
      expected.set(route, (await load.throughput(route, WARMUP_SECONDS, 20_000)).rps);
    }
    checkFailures(load, 'warm-up');

    const rounds: Record<'baseline' | 'signed', RouteRounds> = {
      baseline: { label: baseline.label, latency: [], throughput: [] },
      signed: { label: signed.label, latency: [], throughput: [] },
    };
    // Alternate the order each round (A B, B A, A B ...) so drift does not favour one route.
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? (['baseline', 'signed'] as const) : (['signed', 'baseline'] as const);
      const routes = { baseline, signed };
      for (const which of order) {
        rounds[which].latency.push(await load.latency(routes[which], REQUESTS));
      }
      for (const which of order) {
        const result = await load.throughput(routes[which], DURATION_S, expected.get(routes[which])!);
        rounds[which].throughput.push(result);
        expected.set(routes[which], Math.max(result.rps, expected.get(routes[which])!));
      }
      checkFailures(load, `round ${r + 1}`);
      const b = rounds.baseline;
      const s = rounds.signed;
      console.log(
        `  round ${r + 1}/${ROUNDS}: p50 ${b.latency[r]!.p50.toFixed(3)} vs ${s.latency[r]!.p50.toFixed(3)} ms, ` +
          `${b.throughput[r]!.rps.toFixed(0)} vs ${s.throughput[r]!.rps.toFixed(0)} req/s (baseline vs signed)`,
      );
    }
    return summarise({ name: scenario.name, title: scenario.title, notes: scenario.notes, targets: scenario.targets, ...rounds });
  } finally {
    load.close();
  }
}

async function runScenario(scenario: Scenario): Promise<ScenarioSummary> {
  console.log(`\n-- ${scenario.name}: starting the server (${scenario.title})`);
  const server = await startServer(scenario.env);
  const stop = () => server.stop();
  pending.add(stop);
  try {
    console.log(`  server pid ${server.pid} on ${server.url}; ${ROUNDS} rounds of ${REQUESTS} sequential requests and ${DURATION_S} s at concurrency ${CONCURRENCY} per route`);
    const loadBefore = loadavg()[0]!;
    const summary = await measure(scenario, server);
    const loadAfter = loadavg()[0]!;
    // The bench itself keeps about two processes busy; more than that means other work shared the cores.
    if (Math.max(loadBefore, loadAfter) > availableParallelism() + 0.5) {
      summary.notes = [
        ...summary.notes,
        `the machine was busy with other work (1-min load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, on ${availableParallelism()} cores): figures are noisy.`,
      ];
    }
    return { ...summary, loadAverage: { before: round(loadBefore, 2), after: round(loadAfter, 2) } };
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
      console.log(`\nskipped: postgres scenario (PostgreSQL + Redis): ${problem}`);
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
  const file = `${dir}latest.json`;
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
