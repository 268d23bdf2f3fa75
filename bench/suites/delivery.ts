/**
 * Suite `delivery`: signed orders.create, orders.get, orders.track and orders.estimate against the
 * signed `GET /api/v1/delivery/health` baseline measured in the same rounds (p50/p99 at
 * concurrency 1, req/s at --concurrency, default 16), on the embedded database and on PostgreSQL;
 * one orders.create_bulk call of 100 orders (median of 5); and, on PostgreSQL, orders.get with
 * 10 thousand and then 1 million orders in the table (rows loaded straight through SQL).
 * Defaults: --rounds 3 --requests 500 (sequential per route and round; 2000 for the size test)
 * --duration 2 (seconds per route and round at the concurrency).
 */
import { probeBackends } from '../lib/backends.ts';
import { onCleanup, runCleanups } from '../lib/cleanup.ts';
import { LoadGenerator, signedRoute, type Route } from '../lib/load.ts';
import {
  checkFailures,
  cleanRedisAfter,
  figures,
  fmt,
  newRuns,
  ratios,
  rotated,
  startScenario,
  times,
  type RouteRuns,
  type Started,
} from '../lib/multi.ts';
import {
  DELIVERY,
  estimateBody,
  explainGetIn,
  orderBody,
  OrderTable,
  pick,
} from '../lib/orders.ts';
import {
  machine,
  positive,
  scenarios,
  writeResults,
  type ScenarioName,
  type SuiteOptions,
} from '../lib/options.ts';
import { call, createPartner, type BenchPartner } from '../lib/partner.ts';
import { printProfile, summariseProfiles } from '../lib/profile.ts';
import { BENCH_RATE_LIMIT } from '../lib/server.ts';
import { median, round, table } from '../lib/stats.ts';

const SCOPES = ['delivery:read', 'delivery:write'];
const BULK_SIZE = 100;
const BULK_TARGET_MS = 1000;
const SIZE_STEPS = [10_000, 1_000_000];
const SIZE_TARGET_PCT = 20;

interface Settings {
  rounds: number;
  requests: number;
  sizeRequests: number;
  durationS: number;
  concurrency: number;
  bulkCalls: number;
  cpuProf: string | undefined;
}

type BulkAnswer = {
  summary: { created: number };
  results: Array<{ ok: boolean; order_id: string | null; code?: string; message?: string }>;
};

/** One create_bulk call of 100 fresh orders that must all be created; answers its time and the ids. */
async function bulkCall(p: BenchPartner): Promise<{ ms: number; ids: string[] }> {
  const res = await call<BulkAnswer>(p, 'POST', `${DELIVERY}/orders.create_bulk`, {
    orders: Array.from({ length: BULK_SIZE }, () => orderBody()),
  });
  if (res.body.summary.created !== BULK_SIZE) {
    throw new Error(
      `orders.create_bulk created ${res.body.summary.created}/${BULK_SIZE}, e.g. ${JSON.stringify(res.body.results.find((r) => !r.ok))}`,
    );
  }
  return { ms: res.ms, ids: res.body.results.map((r) => r.order_id!) };
}

async function withServer<T>(started: Started, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const tail = started.server.output().trim();
    if (tail) console.error(`server output (tail):\n${tail}`);
    throw err;
  } finally {
    await runCleanups();
  }
}

async function opsScenario(cfg: Settings, name: ScenarioName) {
  const started = await startScenario(name, 'delivery', cfg.cpuProf);
  const { server } = started;
  return withServer(started, async () => {
    const p = await createPartner(server, { environment: 'production', scopes: SCOPES });
    cleanRedisAfter(started, p.keyId);
    // Two untimed bulk calls: orders for get/track to read, and a warm-up for the timed bulk calls.
    const ids = [...(await bulkCall(p)).ids, ...(await bulkCall(p)).ids];
    // As autovacuum would on a long-lived database; without statistics the planner answers orders.get
    // from delivery_orders_reference_key (app_id, environment, ...) and reads all of the app's orders.
    const seededPlan = started.schema ? await explainGetIn(started.schema, p.appId, true) : null;
    const byId = () => ({ order_id: pick(ids) });
    const routes: Route[] = [
      signedRoute('health (signed baseline)', `${DELIVERY}/health`, p, server.url),
      signedRoute('orders.create', `${DELIVERY}/orders.create`, p, server.url, () => orderBody()),
      signedRoute('orders.get', `${DELIVERY}/orders.get`, p, server.url, byId),
      signedRoute('orders.track', `${DELIVERY}/orders.track`, p, server.url, byId),
      signedRoute('orders.estimate', `${DELIVERY}/orders.estimate`, p, server.url, estimateBody),
    ];
    console.log(
      `  ${cfg.rounds} rounds of ${cfg.requests} sequential requests and ${cfg.durationS} s at concurrency ${cfg.concurrency} per route, interleaved`,
    );
    const load = new LoadGenerator(server.port, cfg.concurrency, server.cpuMs);
    const runs = routes.map((r) => newRuns(r.label));
    try {
      await load.latency(routes, 200);
      let expected = (
        await load.throughput(
          routes,
          1,
          routes.map(() => 5000),
        )
      ).map((t) => t.rps);
      checkFailures(load, 'warm-up');
      for (let r = 0; r < cfg.rounds; r++) {
        const lat = await rotated(routes, r, (o) => load.latency(o, cfg.requests));
        const thr = await rotated(routes, r, (o) =>
          load.throughput(
            o,
            cfg.durationS,
            o.map((x) => expected[routes.indexOf(x)]!),
          ),
        );
        checkFailures(load, `round ${r + 1}`);
        runs.forEach((run, k) => {
          run.latency.push(lat[k]!);
          run.throughput.push(thr[k]!);
        });
        expected = expected.map((e, k) => Math.max(e, thr[k]!.rps));
        console.log(
          `  round ${r + 1}/${cfg.rounds}: ${routes.map((x, k) => `${x.label.split(' ')[0]} ${lat[k]!.p50.toFixed(2)} ms ${thr[k]!.rps.toFixed(0)}/s`).join(', ')}`,
        );
      }
    } finally {
      load.close();
    }
    const bulkMs: number[] = [];
    for (let i = 0; i < cfg.bulkCalls; i++) bulkMs.push((await bulkCall(p)).ms);
    const base = runs[0]!;
    const getPlan = started.schema ? await explainGetIn(started.schema, p.appId) : null;
    return {
      scenario: name,
      title: started.title,
      profileDir: started.profileDir,
      routes: runs.map((run) => ({
        ...figures(run),
        vsHealth: run === base ? null : ratios(run, base),
      })),
      getPlan: getPlan && seededPlan ? { afterSeedAndAnalyze: seededPlan, atEnd: getPlan } : null,
      bulk: {
        orders: BULK_SIZE,
        calls: bulkMs.map((m) => round(m, 1)),
        medianMs: round(median(bulkMs), 1),
        perOrderMs: round(median(bulkMs) / BULK_SIZE, 2),
        targetMs: name === 'postgres' ? BULK_TARGET_MS : null,
        pass: name === 'postgres' ? median(bulkMs) < BULK_TARGET_MS : null,
      },
    };
  });
}

async function measureGet(
  cfg: Settings,
  load: LoadGenerator,
  routes: Route[],
): Promise<RouteRuns[]> {
  const runs = routes.map((r) => newRuns(r.label));
  // A long warm-up: the first table size is measured on a freshly started server.
  await load.latency(routes, 1000);
  let expected = (await load.throughput(routes, 2, [5000, 5000])).map((t) => t.rps);
  checkFailures(load, 'warm-up');
  for (let r = 0; r < cfg.rounds; r++) {
    const lat = await rotated(routes, r, (o) => load.latency(o, cfg.sizeRequests));
    const thr = await rotated(routes, r, (o) =>
      load.throughput(
        o,
        cfg.durationS,
        o.map((x) => expected[routes.indexOf(x)]!),
      ),
    );
    checkFailures(load, `round ${r + 1}`);
    runs.forEach((run, k) => {
      run.latency.push(lat[k]!);
      run.throughput.push(thr[k]!);
    });
    expected = expected.map((e, k) => Math.max(e, thr[k]!.rps));
    console.log(
      `  round ${r + 1}/${cfg.rounds}: orders.get p50 ${lat[1]!.p50.toFixed(3)} p99 ${lat[1]!.p99.toFixed(3)} ms; health p50 ${lat[0]!.p50.toFixed(3)} p99 ${lat[0]!.p99.toFixed(3)} ms`,
    );
  }
  return runs;
}

async function sizeScenario(cfg: Settings) {
  const started = await startScenario('postgres', 'delivery', cfg.cpuProf, '-size');
  const { server } = started;
  return withServer(started, async () => {
    const p = await createPartner(server, {
      environment: 'production',
      scopes: SCOPES,
      otherApps: 4,
    });
    cleanRedisAfter(started, p.keyId);
    const orders = new OrderTable(started.schema!, p.partnerId, [p.appId, ...p.otherAppIds]);
    await orders.open();
    onCleanup(() => orders.close());
    const routes = [
      signedRoute('health (signed baseline)', `${DELIVERY}/health`, p, server.url),
      signedRoute('orders.get', `${DELIVERY}/orders.get`, p, server.url, () => ({
        order_id: orders.randomOwnedId(),
      })),
    ];
    const load = new LoadGenerator(server.port, cfg.concurrency, server.cpuMs);
    const steps = [];
    try {
      for (const rows of SIZE_STEPS) {
        console.log(
          `  loading delivery_orders up to ${rows.toLocaleString('en')} rows (+ one event each), then VACUUM ANALYZE`,
        );
        const timing = await orders.growTo(rows);
        const stats = {
          ...(await orders.stats()),
          getPlanIndex: await orders.getPlanIndex(p.appId),
        };
        console.log(
          `  loaded in ${timing.insertSeconds.toFixed(1)} s, vacuum analyze ${timing.vacuumSeconds.toFixed(1)} s; orders ${stats.ordersMb.toFixed(0)} MB, events ${stats.eventsMb.toFixed(0)} MB with indexes`,
        );
        const [health, get] = await measureGet(cfg, load, routes);
        steps.push({
          ...stats,
          ...timing,
          health: figures(health!),
          get: figures(get!),
          getVsHealth: ratios(get!, health!),
        });
      }
    } finally {
      load.close();
    }
    const [small, large] = steps;
    const growth = (a: number | null, b: number | null) =>
      a === null || b === null ? null : round((b / a - 1) * 100, 1);
    const p99Growth = growth(small!.get.p99Ms, large!.get.p99Ms);
    const overHealth = growth(small!.getVsHealth.p99, large!.getVsHealth.p99);
    return {
      title: started.title,
      steps,
      growthPct: {
        getP50: growth(small!.get.p50Ms, large!.get.p50Ms),
        getP99: p99Growth,
        getLoadedP99: growth(small!.get.loadedP99Ms, large!.get.loadedP99Ms),
        healthP99: growth(small!.health.p99Ms, large!.health.p99Ms),
        getP99OverHealth: overHealth,
      },
      targetPct: SIZE_TARGET_PCT,
      concurrency: cfg.concurrency,
      pass: p99Growth === null ? null : p99Growth < SIZE_TARGET_PCT,
      passOverHealth: overHealth === null ? null : overHealth < SIZE_TARGET_PCT,
    };
  });
}

type Ops = Awaited<ReturnType<typeof opsScenario>>;
type Size = Awaited<ReturnType<typeof sizeScenario>>;
const pct = (v: number | null) => (v === null ? 'n/a' : `${v >= 0 ? '+' : ''}${v.toFixed(1)}%`);
const verdict = (ok: boolean | null) => (ok === null ? '' : ok ? 'PASS' : 'MISS');

function printOps(s: Ops, concurrency: number): void {
  console.log(`\n== delivery operations, ${s.scenario}: ${s.title} ==`);
  const rows = s.routes.map((r) => [
    r.route,
    fmt(r.p50Ms),
    fmt(r.p99Ms),
    fmt(r.rps, 0),
    fmt(r.loadedP99Ms, 2),
    fmt(r.serverCpuUsPerReq, 0),
    r.vsHealth ? times(r.vsHealth.p50) : '1',
    r.vsHealth ? times(r.vsHealth.p99) : '1',
    r.vsHealth ? times(r.vsHealth.rps) : '1',
  ]);
  const c = `@c${concurrency}`;
  console.log(
    table(
      [
        'operation',
        'p50 ms',
        'p99 ms',
        `req/s ${c}`,
        `p99 ms ${c}`,
        'server CPU µs/req',
        'p50 ×health',
        'p99 ×health',
        'req/s ×health',
      ],
      rows,
    ),
  );
  const b = s.bulk;
  console.log(
    `orders.create_bulk (${b.orders} orders, 5 at a time server-side): median ${b.medianMs.toFixed(0)} ms (${b.perOrderMs.toFixed(2)} ms/order); ` +
      `calls ${b.calls.map((m) => m.toFixed(0)).join(' / ')} ms` +
      (b.targetMs === null ? '' : `; target < ${b.targetMs} ms  ${verdict(b.pass)}`),
  );
  if (s.getPlan) {
    const { afterSeedAndAnalyze: a, atEnd: e } = s.getPlan;
    console.log(
      `orders.get lookup: ANALYZE after seeding (${a.rows} orders) → ${a.index}; at the end (${e.rows.toLocaleString('en')} orders) → ${e.index}`,
    );
  }
}

function printSize(s: Size): void {
  console.log(`\n== orders.get vs table size, ${s.title} ==`);
  const rows = s.steps.map((st) => [
    st.rows.toLocaleString('en'),
    fmt(st.get.p50Ms),
    fmt(st.get.p99Ms),
    fmt(st.get.rps, 0),
    fmt(st.get.loadedP99Ms, 2),
    fmt(st.health.p50Ms),
    fmt(st.health.p99Ms),
    times(st.getVsHealth.p99),
    `${st.insertSeconds.toFixed(1)} + ${st.vacuumSeconds.toFixed(1)}`,
    `${st.ordersMb.toFixed(0)}`,
    st.getPlanIndex,
  ]);
  console.log(
    table(
      [
        'rows',
        'get p50 ms',
        'get p99 ms',
        'get req/s',
        'get p99 @load',
        'health p50',
        'health p99',
        'get p99 ×health',
        'load + vacuum s',
        'table MB',
        'get uses index',
      ],
      rows,
    ),
  );
  const g = s.growthPct;
  console.log(
    `orders.get growth 10k → 1M rows: p50 ${pct(g.getP50)}, p99 ${pct(g.getP99)} (target < +${s.targetPct}%)  ${verdict(s.pass)}`,
  );
  console.log(
    `  orders.get p99 as a multiple of the same rounds' signed health p99: ${pct(g.getP99OverHealth)} (target < +${s.targetPct}%)  ${verdict(s.passOverHealth)}; ` +
      `orders.get p99 at concurrency ${s.concurrency}: ${pct(g.getLoadedP99)}`,
  );
  if (g.healthP99 !== null && Math.abs(g.healthP99) > s.targetPct) {
    console.log(
      `  the signed health p99 itself moved ${pct(g.healthP99)} between the two measurements: the machine's load changed, so the raw growth is mostly noise; the ratio to health is the steadier figure.`,
    );
  }
}

export async function runDelivery(opts: SuiteOptions): Promise<number> {
  const requests = Math.round(positive('requests', opts.requests, 500));
  const cfg: Settings = {
    rounds: Math.round(positive('rounds', opts.rounds, 3)),
    requests,
    sizeRequests: Math.max(requests, 2000),
    durationS: positive('duration', opts.duration, 2),
    concurrency: Math.round(positive('concurrency', opts.concurrency, 16)),
    bulkCalls: 5,
    cpuProf: opts.cpuProf,
  };
  const wanted = scenarios(opts.scenario);
  const m = machine();
  console.log(
    `delivery operations benchmark: node ${m.node}, ${m.cores} cores (${m.cpu}); partner rate limits ${BENCH_RATE_LIMIT}/min; production key (${SCOPES.join(', ')})`,
  );
  const ops: Ops[] = [];
  let size: Size | undefined;
  const skipped: Array<{ scenario: string; skipped: string }> = [];
  let failed = false;
  for (const name of wanted) {
    if (name === 'postgres') {
      const problem = await probeBackends();
      if (problem) {
        console.log(`\n-- postgres: skipped (PostgreSQL + Redis needed): ${problem}`);
        skipped.push({ scenario: 'postgres', skipped: problem });
        if (wanted.length === 1) failed = true;
        continue;
      }
    }
    ops.push(await opsScenario(cfg, name));
    if (name === 'postgres') size = await sizeScenario(cfg);
  }
  for (const s of ops) printOps(s, cfg.concurrency);
  if (size) printSize(size);
  for (const s of skipped) console.log(`\nskipped: ${s.scenario}: ${s.skipped}`);
  console.log(
    '\nnote: ratios are per round against the signed health check of the same round (signing, key, nonce, rate limit and select 1), then the median over rounds.',
  );
  console.log(
    "note: PostgreSQL scenarios ANALYZE the fresh schema after seeding, as autovacuum would on a long-lived database. The embedded database (PGlite) has no autovacuum and is never analysed: there orders.get/track may be planned on delivery_orders_reference_key and read every order of the app, so they slow down as the app's orders grow.",
  );
  console.log(
    'note: orders.get/track read random orders among 200 made by create_bulk. Server CPU is the server process only: on PostgreSQL it excludes PostgreSQL and Redis (same two cores); embedded, PGlite runs inside the server process, so it includes the database.',
  );
  const profiles: Record<string, unknown> = {};
  for (const s of ops) {
    const prof = s.profileDir ? summariseProfiles(s.profileDir) : undefined;
    if (prof)
      printProfile(
        `server CPU profile, ${s.scenario} (all routes mixed, profiler overhead included)`,
        prof,
      );
    if (prof) profiles[s.scenario] = prof;
  }
  const file = writeResults('delivery', Boolean(cfg.cpuProf), {
    settings: {
      ...cfg,
      bulkSize: BULK_SIZE,
      partnerRateLimitPerMinute: BENCH_RATE_LIMIT,
      scopes: SCOPES,
      sizeSteps: SIZE_STEPS,
    },
    scenarios: ops,
    tableSize: size ?? null,
    skipped,
    ...(Object.keys(profiles).length > 0 ? { profiles } : {}),
  });
  console.log(`\nresults written to ${file}`);
  return failed ? 1 : 0;
}
