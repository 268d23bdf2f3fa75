/** Helpers for suites that compare several routes on one server: start-up, rotation, medians, ratios. */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { dropRedisKeys, dropSchema, POSTGRES_URL, REDIS_URL } from './backends.ts';
import { onCleanup } from './cleanup.ts';
import type { LatencyResult, LoadGenerator, Route, ThroughputResult } from './load.ts';
import type { ScenarioName } from './options.ts';
import { median, round } from './stats.ts';
import { startServer, type BenchServer } from './server.ts';

export interface Started {
  server: BenchServer;
  scenario: ScenarioName;
  title: string;
  /** PostgreSQL only: the bench schema, also the server's application_name (PGAPPNAME). */
  schema: string | undefined;
  profileDir: string | undefined;
}

/**
 * Starts the real server for a scenario and registers its cleanups (stop it, drop its schema).
 * Embedded: DATABASE_URL=memory:. PostgreSQL: a fresh bench_<random> schema, Redis, and
 * PGAPPNAME so that pg_stat_activity tells the server's connections apart.
 */
export async function startScenario(
  scenario: ScenarioName,
  suite: string,
  cpuProf: string | undefined,
  tag = '',
): Promise<Started> {
  let env: Record<string, string> = { DATABASE_URL: 'memory:' };
  let title = 'PGlite in memory (DATABASE_URL=memory:), in-process replay/rate-limit store';
  let schema: string | undefined;
  if (scenario === 'postgres') {
    const name = `bench_${randomBytes(6).toString('hex')}`;
    schema = name;
    env = { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: name, REDIS_URL, PGAPPNAME: name };
    title = `PostgreSQL (schema ${name}, dropped afterwards) + Redis`;
    // Registered before the server starts: it creates the schema on boot.
    onCleanup(async () => {
      await dropSchema(name);
      console.log(`  dropped schema ${name}`);
    });
  }
  const profileDir = cpuProf ? resolve(cpuProf, suite, `${scenario}${tag}`) : undefined;
  console.log(`\n-- ${scenario}${tag}: starting the server (${title})`);
  const server = await startServer(
    env,
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  onCleanup(() => server.stop());
  console.log(`  server pid ${server.pid} on ${server.url}`);
  return { server, scenario, title, schema, profileDir };
}

/** PostgreSQL scenarios: remove the key's nonces and rate-limit windows from Redis at the end. */
export function cleanRedisAfter(started: Started, keyId: string): void {
  if (started.scenario !== 'postgres') return;
  onCleanup(async () => {
    console.log(`  removed ${await dropRedisKeys(keyId)} bench key(s) from Redis`);
  });
}

export function checkFailures(load: LoadGenerator, phase: string): void {
  if (load.failures.count > 0) {
    throw new Error(
      `${load.failures.count} non-2xx answer(s) during ${phase}, e.g.:\n  ${load.failures.samples.join('\n  ')}`,
    );
  }
  if (load.failures.resent > 0)
    console.log(
      `  (${phase}: ${load.failures.resent} request(s) resent: the server had closed their idle keep-alive socket)`,
    );
  load.failures.resent = 0;
}

/** Runs a phase with a different route leading each round; answers results in the routes' own order. */
export async function rotated<T>(
  routes: readonly Route[],
  r: number,
  phase: (ordered: Route[]) => Promise<T[]>,
): Promise<T[]> {
  const shift = r % routes.length;
  const out = await phase([...routes.slice(shift), ...routes.slice(0, shift)]);
  const back = new Array<T>(routes.length);
  out.forEach((v, k) => (back[(k + shift) % routes.length] = v));
  return back;
}

export interface RouteRuns {
  label: string;
  latency: LatencyResult[];
  throughput: ThroughputResult[];
}

export const newRuns = (label: string): RouteRuns => ({ label, latency: [], throughput: [] });

const med = (xs: Array<number | undefined>, digits: number) => {
  const v = xs.filter((x): x is number => x !== undefined && Number.isFinite(x));
  return v.length > 0 ? round(median(v), digits) : null;
};

/** Medians over rounds. */
export function figures(r: RouteRuns) {
  return {
    route: r.label,
    p50Ms: med(
      r.latency.map((l) => l.p50),
      4,
    ),
    p99Ms: med(
      r.latency.map((l) => l.p99),
      4,
    ),
    rps: med(
      r.throughput.map((t) => t.rps),
      1,
    ),
    loadedP50Ms: med(
      r.throughput.map((t) => t.p50),
      3,
    ),
    loadedP99Ms: med(
      r.throughput.map((t) => t.p99),
      3,
    ),
    serverCpuUsPerReq: med(
      r.throughput.map((t) => t.serverCpuUsPerReq),
      1,
    ),
    rounds: {
      p50Ms: r.latency.map((l) => round(l.p50, 4)),
      p99Ms: r.latency.map((l) => round(l.p99, 4)),
      rps: r.throughput.map((t) => round(t.rps, 1)),
      loadedP99Ms: r.throughput.map((t) => round(t.p99, 3)),
    },
  };
}

/** Per-round ratios of a route to a baseline measured in the same round, then their median. */
export function ratios(r: RouteRuns, base: RouteRuns) {
  const per = <T>(xs: T[], bs: T[], f: (x: T, b: T) => number) =>
    med(
      xs.map((x, i) => (bs[i] === undefined ? undefined : f(x, bs[i]!))),
      3,
    );
  return {
    p50: per(r.latency, base.latency, (x, b) => x.p50 / b.p50),
    p99: per(r.latency, base.latency, (x, b) => x.p99 / b.p99),
    rps: per(r.throughput, base.throughput, (x, b) => x.rps / b.rps),
    loadedP50: per(r.throughput, base.throughput, (x, b) => x.p50 / b.p50),
    loadedP99: per(r.throughput, base.throughput, (x, b) => x.p99 / b.p99),
  };
}

export const fmt = (v: number | null, digits = 3) => (v === null ? 'n/a' : v.toFixed(digits));
export const times = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(2)}x`);
