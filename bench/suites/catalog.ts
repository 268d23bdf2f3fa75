/**
 * Suite `catalog` (issue 5): signed catalog.list (limit 50: first page and a deep cursor page,
 * with and without vendor_id) and catalog.get, p50/p99 at concurrency 1 and req/s at
 * --concurrency (16), against the signed safe-catalog health check of the same rounds; on
 * PostgreSQL at 1 thousand and then 100 thousand products over 2 thousand vendors (bulk-loaded
 * into the bench schema, see lib/catalog-data.ts), reporting the growth. Then cod orders.create
 * (production key with safe:write, one vendor's in-stock products, buyer in Accra) against
 * delivery orders.create (recipient pays) from 1 and 16 clients. Embedded: the same at 1 thousand
 * products, loaded through the operator API.
 * Defaults: --rounds 3 --requests 500 (sequential per route and round) --duration 2 (seconds per
 * route and round under load).
 */
import { encodeCursor } from '../../src/modules/catalog/domain/places.ts';
import { probeBackends } from '../lib/backends.ts';
import { runCleanups } from '../lib/cleanup.ts';
import {
  CatalogIds,
  catalogSizes,
  explainPage,
  growCatalogSql,
  inStock,
  loadCatalogApi,
} from '../lib/catalog-data.ts';
import { cleanKeyAfter, schemaClient, startFleet } from '../lib/instances.ts';
import { LoadGenerator, signedRoute, type Route } from '../lib/load.ts';
import {
  checkFailures,
  figures,
  fmt,
  newRuns,
  ratios,
  rotated,
  times,
  type RouteRuns,
} from '../lib/multi.ts';
import { DELIVERY, orderBody, pick } from '../lib/orders.ts';
import {
  machine,
  positive,
  scenarios,
  writeResults,
  type ScenarioName,
  type SuiteOptions,
} from '../lib/options.ts';
import { createPartner, type BenchPartner } from '../lib/partner.ts';
import { round, table } from '../lib/stats.ts';
import type { BenchServer } from '../lib/server.ts';

const SAFE = '/api/v1/safe-catalog';
const SCOPES = ['safe:read', 'safe:write', 'delivery:read', 'delivery:write'];
const PG_SIZES = [1_000, 100_000];
const EMBEDDED_SIZE = 1_000;
const P99_TARGET_MS = 20;
const FLAT_PCT = 20;
const CLIENTS = [1, 16];

interface Settings {
  rounds: number;
  requests: number;
  durationS: number;
  concurrency: number;
}

const sortedIds = (ids: CatalogIds, idx: number[]) => idx.map((i) => ids.products[i]!).sort();
/** After 90% of the ids, but with a full page of 50 still after it (small vendors at the small size). */
const deepAt = (sorted: string[]) =>
  sorted[Math.max(0, Math.min(Math.floor(sorted.length * 0.9), sorted.length - 51))]!;
const deepCursor = (sorted: string[]) => encodeCursor(deepAt(sorted));

function readRoutes(p: BenchPartner, url: string, ids: CatalogIds): Route[] {
  const all = sortedIds(ids, ids.listedIndexes());
  const big = sortedIds(ids, ids.listedIndexes(0));
  const vendors = ids.vendors.slice(1).filter((_, k) => (k + 1) % 20 !== 19);
  return [
    signedRoute('health (signed baseline)', `${SAFE}/health`, p, url),
    signedRoute('list, first page', `${SAFE}/catalog.list?limit=50`, p, url),
    signedRoute(
      'list, deep page (90%)',
      `${SAFE}/catalog.list?limit=50&cursor=${deepCursor(all)}`,
      p,
      url,
    ),
    {
      ...signedRoute('list, vendor_id (random vendor)', `${SAFE}/catalog.list`, p, url),
      query: () => `limit=50&vendor_id=${pick(vendors)}`,
    },
    signedRoute(
      `list, vendor_id deep (big vendor, ${big.length} listed)`,
      `${SAFE}/catalog.list?limit=50&vendor_id=${ids.vendors[0]}&cursor=${deepCursor(big)}`,
      p,
      url,
    ),
    {
      ...signedRoute('get (random listed product)', `${SAFE}/catalog.get`, p, url),
      query: () => `product_id=${pick(all)}`,
    },
  ];
}

/** Warm-up, then `rounds` of interleaved sequential latency and closed-loop throughput. */
async function measure(
  cfg: Settings,
  load: LoadGenerator,
  routes: Route[],
  warmup: number,
  what: (l: number[]) => string,
): Promise<RouteRuns[]> {
  const runs = routes.map((r) => newRuns(r.label));
  await load.latency(routes, warmup);
  let expected = (
    await load.throughput(
      routes,
      warmup / 300,
      routes.map(() => 3000),
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
    console.log(`  round ${r + 1}/${cfg.rounds}: p99 ms ${what(lat.map((l) => l.p99))}`);
  }
  return runs;
}

const p99s = (l: number[]) => l.map((v) => v.toFixed(1)).join(' / ');

async function readStep(
  cfg: Settings,
  server: BenchServer,
  p: BenchPartner,
  ids: CatalogIds,
  first: boolean,
  extra: Record<string, unknown>,
) {
  const routes = readRoutes(p, server.url, ids);
  const load = new LoadGenerator(server.port, cfg.concurrency, server.cpuMs);
  try {
    // The first step runs on a freshly started server: a longer warm-up (JIT, pools) before it.
    const runs = await measure(cfg, load, routes, first ? 1500 : 300, p99s);
    const base = runs[0]!;
    return {
      products: ids.size,
      ...extra,
      routes: runs.map((r) => ({ ...figures(r), vsHealth: r === base ? null : ratios(r, base) })),
    };
  } finally {
    load.close();
  }
}

/** cod orders.create against delivery orders.create (recipient pays), closed loop from 1 and 16 clients. */
async function codPhase(cfg: Settings, server: BenchServer, p: BenchPartner, ids: CatalogIds) {
  const RUN = Math.random().toString(36).slice(2, 8);
  let n = 0;
  const items = ids.listedIndexes(0).filter(inStock);
  const codBody = () => {
    const i = pick(items);
    return {
      payment_method: 'cod',
      vendor_id: ids.vendors[0],
      items: [{ product_id: ids.products[i], variant_id: ids.variants[i], quantity: 1 }],
      buyer: { name: 'Ama Mensah', phone: '024 123 4567' },
      delivery: { address: '12 Lagos Avenue, East Legon, Accra', lat: 5.635, lng: -0.161 },
      external_reference: `bench-${RUN}-${++n}`,
    };
  };
  const routes = [
    signedRoute(
      'delivery orders.create (recipient pays)',
      `${DELIVERY}/orders.create`,
      p,
      server.url,
      () => orderBody(),
    ),
    signedRoute(
      'safe-catalog orders.create (cod)',
      `${SAFE}/orders.create`,
      p,
      server.url,
      codBody,
    ),
  ];
  const loads = CLIENTS.map((c) => new LoadGenerator(server.port, c, server.cpuMs));
  const runs = loads.map(() => routes.map((r) => newRuns(r.label)));
  try {
    const expected: number[][] = [];
    for (const l of loads)
      expected.push((await l.throughput(routes, 1, [2000, 2000])).map((t) => t.rps));
    loads.forEach((l) => checkFailures(l, 'warm-up'));
    for (let r = 0; r < cfg.rounds; r++) {
      const line: string[] = [];
      for (const [i, load] of loads.entries()) {
        const thr = await rotated(routes, r, (o) =>
          load.throughput(
            o,
            cfg.durationS,
            o.map((x) => expected[i]![routes.indexOf(x)]!),
          ),
        );
        checkFailures(load, `cod round ${r + 1} at ${load.concurrency} clients`);
        thr.forEach((t, k) => {
          runs[i]![k]!.throughput.push(t);
          expected[i]![k] = Math.max(expected[i]![k]!, t.rps);
        });
        line.push(`c${load.concurrency} ${thr.map((t) => t.rps.toFixed(0)).join(' vs ')} req/s`);
      }
      console.log(`  cod round ${r + 1}/${cfg.rounds}: ${line.join('; ')} (delivery vs cod)`);
    }
  } finally {
    loads.forEach((l) => l.close());
  }
  return loads.map((l, i) => {
    const [delivery, cod] = runs[i]! as [RouteRuns, RouteRuns];
    return {
      clients: l.concurrency,
      delivery: figures(delivery),
      cod: figures(cod),
      codVsDelivery: ratios(cod, delivery),
    };
  });
}

async function scenario(cfg: Settings, name: ScenarioName) {
  const fleet = await startFleet({
    scenario: name,
    label: `${name}: catalog`,
    env: { SANDBOX_COURIER_STEP_SECONDS: '0' },
  });
  const server = fleet.servers[0]!;
  try {
    const p = await createPartner(server, { environment: 'production', scopes: SCOPES });
    cleanKeyAfter(fleet, p.keyId);
    const steps = [];
    let ids: CatalogIds;
    let sales: Record<string, number> | null = null;
    if (fleet.schema) {
      const db = await schemaClient(fleet.schema);
      let from = 0;
      for (const size of PG_SIZES) {
        console.log(
          `  bulk-loading the catalog up to ${size.toLocaleString('en')} products (${size / 50} vendors), then VACUUM ANALYZE`,
        );
        const timing = await growCatalogSql(db, from, size);
        from = size;
        ids = CatalogIds.formula(size);
        const sizes = await catalogSizes(db);
        const big = sortedIds(ids, ids.listedIndexes(0));
        const plans = {
          first: await explainPage(db, null, null),
          vendorDeep: await explainPage(db, ids.vendors[0]!, deepAt(big)),
        };
        console.log(
          `  loaded in ${timing.insertSeconds.toFixed(1)} s + vacuum ${timing.vacuumSeconds.toFixed(1)} s: ${JSON.stringify(sizes)}; plans ${JSON.stringify(plans)}`,
        );
        steps.push(
          await readStep(cfg, server, p, ids, steps.length === 0, { ...sizes, ...timing, plans }),
        );
      }
      const cod = await codPhase(cfg, server, p, ids!);
      const { rows } = await db.query<{ sales: string; linked: string }>(
        `select count(*) as sales, count(delivery_order_id) as linked from sales where app_id = $1`,
        [p.appId],
      );
      sales = { sales: Number(rows[0]!.sales), withDeliveryOrder: Number(rows[0]!.linked) };
      return { scenario: name, title: fleet.title, steps, cod, sales };
    }
    console.log(
      `  loading ${EMBEDDED_SIZE.toLocaleString('en')} products (${EMBEDDED_SIZE / 50} vendors) through the operator API`,
    );
    ids = await loadCatalogApi(server, EMBEDDED_SIZE);
    steps.push(await readStep(cfg, server, p, ids, true, {}));
    return {
      scenario: name,
      title: fleet.title,
      steps,
      cod: await codPhase(cfg, server, p, ids),
      sales,
    };
  } catch (err) {
    console.error(`server output (tail):\n${server.output().trim().slice(-3000)}`);
    throw err;
  } finally {
    await runCleanups();
  }
}

type Result = Awaited<ReturnType<typeof scenario>>;
const pct = (a: number | null, b: number | null) =>
  a === null || b === null ? null : round((b / a - 1) * 100, 1);
const signed = (v: number | null) => (v === null ? 'n/a' : `${v >= 0 ? '+' : ''}${v.toFixed(1)}%`);

function growth(s: Result) {
  if (s.steps.length < 2) return [];
  const [small, large] = [s.steps[0]!, s.steps.at(-1)!];
  return large.routes.slice(1).map((r, k) => {
    const a = small.routes[k + 1]!;
    return {
      route: r.route.replace(/ \(big vendor, \d+ listed\)/, ' (big vendor)'),
      p50Pct: pct(a.p50Ms, r.p50Ms),
      p99Pct: pct(a.p99Ms, r.p99Ms),
      p99OverHealthPct: pct(a.vsHealth!.p99, r.vsHealth!.p99),
      loadedRpsPct: pct(a.rps, r.rps),
      p99AtLargeMs: r.p99Ms,
      pass: r.route.startsWith('list') ? (r.p99Ms ?? Infinity) < P99_TARGET_MS : null,
      flat:
        (pct(a.p99Ms, r.p99Ms) ?? Infinity) < FLAT_PCT ||
        (pct(a.vsHealth!.p99, r.vsHealth!.p99) ?? Infinity) < FLAT_PCT,
    };
  });
}

function print(s: Result, cfg: Settings): void {
  for (const st of s.steps) {
    console.log(
      `\n== catalog reads, ${s.scenario}, ${st.products.toLocaleString('en')} products: ${s.title} ==`,
    );
    const rows = st.routes.map((r) => [
      r.route,
      fmt(r.p50Ms),
      fmt(r.p99Ms),
      fmt(r.rps, 0),
      fmt(r.loadedP99Ms, 1),
      fmt(r.serverCpuUsPerReq, 0),
      r.vsHealth ? times(r.vsHealth.p50) : '1',
      r.vsHealth ? times(r.vsHealth.p99) : '1',
      r.vsHealth ? times(r.vsHealth.rps) : '1',
    ]);
    console.log(
      table(
        [
          'route',
          'p50 ms',
          'p99 ms',
          `req/s @c${cfg.concurrency}`,
          `p99 @c${cfg.concurrency}`,
          'server CPU µs/req',
          'p50 ×health',
          'p99 ×health',
          'req/s ×health',
        ],
        rows,
      ),
    );
  }
  const g = growth(s);
  if (g.length > 0) {
    console.log(
      `\ngrowth ${PG_SIZES[0]!.toLocaleString('en')} → ${PG_SIZES.at(-1)!.toLocaleString('en')} products (${s.scenario}); target: list p99 < ${P99_TARGET_MS} ms at the large size, flat = p99 (or p99 ×health) grows < ${FLAT_PCT}%`,
    );
    console.log(
      table(
        [
          'route',
          'p50',
          'p99',
          'p99 ×health',
          `req/s @c${cfg.concurrency}`,
          'p99 ms (large)',
          `< ${P99_TARGET_MS} ms`,
          'flat',
        ],
        g.map((r) => [
          r.route,
          signed(r.p50Pct),
          signed(r.p99Pct),
          signed(r.p99OverHealthPct),
          signed(r.loadedRpsPct),
          fmt(r.p99AtLargeMs, 2),
          r.pass === null ? '' : r.pass ? 'PASS' : 'MISS',
          r.flat ? 'PASS' : 'MISS',
        ]),
      ),
    );
  }
  console.log(
    `\n== orders.create, cod against delivery recipient-pays, ${s.scenario} (${s.steps.at(-1)!.products.toLocaleString('en')} products) ==`,
  );
  const rows = s.cod.flatMap((c) =>
    [c.delivery, c.cod].map((f) => [
      f.route,
      String(c.clients),
      fmt(f.rps, 0),
      fmt(f.loadedP50Ms, 2),
      fmt(f.loadedP99Ms, 2),
      fmt(f.serverCpuUsPerReq, 0),
    ]),
  );
  console.log(table(['route', 'clients', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req'], rows));
  for (const c of s.cod)
    console.log(
      `cod/delivery at ${c.clients} client(s): req/s ${times(c.codVsDelivery.rps)}, p50 ${times(c.codVsDelivery.loadedP50)}, p99 ${times(c.codVsDelivery.loadedP99)}`,
    );
  if (s.sales)
    console.log(
      `cod sales created: ${s.sales.sales}, each with its delivery order linked: ${s.sales.withDeliveryOrder}`,
    );
}

const NOTES = [
  'ratios are per round against the signed safe-catalog health check of the same round (signing, key, nonce, rate limit and select 1), then the median over rounds.',
  'the deep page starts at the listed product 90% of the way through the catalog; the big vendor (vendor 0) holds 5% of the products, its deep page starts 90% through them (or 51 before its end, so that every deep page holds 50 products). The random-vendor list reads a random syndicated vendor (~47 listed products: one page).',
  'a cod orders.create prices the lines (3 reads), inserts the sale and its items and reserves stock (one transaction), then places and links the delivery order in a second transaction under the sale row lock (with its timeline entry and outbox event): about twice the work of a delivery orders.create. Items are spread over the big vendor’s in-stock products, so variant row locks rarely collide.',
];

export async function runCatalog(opts: SuiteOptions): Promise<number> {
  const cfg: Settings = {
    rounds: Math.round(positive('rounds', opts.rounds, 3)),
    requests: Math.round(positive('requests', opts.requests, 500)),
    durationS: positive('duration', opts.duration, 2),
    concurrency: Math.round(positive('concurrency', opts.concurrency, 16)),
  };
  const wanted = scenarios(opts.scenario);
  const m = machine();
  console.log(
    `safe-catalog benchmark: node ${m.node}, ${m.cores} cores (${m.cpu}); production key (${SCOPES.join(', ')})`,
  );
  const results: Result[] = [];
  const skipped: Array<{ scenario: string; skipped: string }> = [];
  for (const name of wanted) {
    const problem = name === 'postgres' ? await probeBackends() : null;
    if (problem) {
      console.log(`\n-- postgres: skipped (PostgreSQL + Redis needed): ${problem}`);
      skipped.push({ scenario: 'postgres', skipped: problem });
      continue;
    }
    results.push(await scenario(cfg, name));
  }
  for (const s of results) print(s, cfg);
  for (const s of skipped) console.log(`\nskipped: ${s.scenario}: ${s.skipped}`);
  for (const n of NOTES) console.log(`note: ${n}`);
  const file = writeResults('catalog', false, {
    settings: {
      ...cfg,
      clients: CLIENTS,
      pgSizes: PG_SIZES,
      embeddedSize: EMBEDDED_SIZE,
      p99TargetMs: P99_TARGET_MS,
      flatPct: FLAT_PCT,
      scopes: SCOPES,
    },
    scenarios: results.map((s) => ({ ...s, growth: growth(s) })),
    notes: NOTES,
    skipped,
  });
  console.log(`\nresults written to ${file}`);
  return skipped.length > 0 && wanted.length === 1 ? 1 : 0;
}
