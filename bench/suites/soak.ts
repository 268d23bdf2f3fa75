/**
 * Suite `soak` (issue 8; only when asked for, not part of `all`): on PostgreSQL + Redis, 20
 * partners (8 production apps with a topped-up wallet, 12 staging apps) send a weighted mix of
 * delivery, wallet and safe-catalog operations (lib/mix.ts) with a few deliberate 4xx, for
 * --duration-min minutes (default 10) from --concurrency virtual clients (default 40) that think
 * ~150 ms between calls. Reports throughput, per-operation req/s and p50/p99, errors (expected
 * 4xx apart from unexpected 4xx, 5xx and network errors), and the server's RSS (/proc VmRSS) every
 * 10 s: at rest before load, after warm-up (2 min, or half a short run), at the end, at rest after,
 * and its slope after warm-up. Then 1 instance against 2 (a second server process on the same
 * schema and Redis; calls alternate between them), closed loop from 32 clients, for a quarter of
 * the soak each (30 s to 2.5 min): per-operation req/s and p99, CPU and RSS under load.
 * During the soak (issue 30) 1,000 couriers on duty, 100 of them holding a job, report positions
 * every 5 s through the courier app, and the tables that grow with them and with webhooks are
 * sampled each minute (lib/soak-tables.ts): the last quarter of the run may grow them ≤ 5%.
 * The per-operation p99 are compared with the previous soak on this machine (lib/previous.ts).
 */
import { POSTGRES_URL, probeBackends } from '../lib/backends.ts';
import { runCleanups } from '../lib/cleanup.ts';
import { CatalogIds, growCatalogSql, inStock, vendorOf } from '../lib/catalog-data.ts';
import {
  addInstance,
  cleanKeyAfter,
  otherCores,
  rssMb,
  schemaClient,
  startFleet,
  type Fleet,
} from '../lib/instances.ts';
import {
  mixWeights,
  newTarget,
  Recorder,
  runMix,
  type SoakPartner,
  type Target,
  type World,
} from '../lib/mix.ts';
import { DELIVERY, orderBody } from '../lib/orders.ts';
import { machine, positive, writeResults, type SuiteOptions } from '../lib/options.ts';
import { call, createPartner, topUpWallet, WALLET_SCOPES } from '../lib/partner.ts';
import { compare, previousRun, printComparison, type Guard } from '../lib/previous.ts';
import { machineCpuMs, type BenchServer } from '../lib/server.ts';
import { printCourierLoad, startCourierLoad } from '../lib/soak-tables.ts';
import { median, round, table } from '../lib/stats.ts';

const PRODUCTION = 8;
const STAGING = 12;
const CATALOG_SIZE = 10_000;
const THINK_MS = 150;
const CMP_VUS = 32;
const SAMPLE_MS = 10_000;
const TOPUP_GHS = 100_000;
const SEED_ORDERS = 20;
/** RSS slope after warm-up below this counts as no growth. */
const FLAT_MB_PER_MIN = 1;
/** The regression guard's rule for the soak's per-operation p99 (lib/previous.ts). */
const GUARD: Guard = { tolerance: 0.25, floor: 5, better: 'lower', unit: 'ms' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function partners(fleet: Fleet): Promise<SoakPartner[]> {
  const server = fleet.servers[0]!;
  const out: SoakPartner[] = [];
  for (let i = 0; i < PRODUCTION + STAGING; i++) {
    const environment = i < PRODUCTION ? 'production' : 'staging';
    const p = await createPartner(server, {
      environment,
      scopes: environment === 'production' ? [...WALLET_SCOPES, 'safe:read', 'safe:write'] : ['*'],
    });
    cleanKeyAfter(fleet, p.keyId);
    if (environment === 'production') await topUpWallet(server, p, TOPUP_GHS);
    const bulk = await call<{ results: Array<{ order_id: string | null }> }>(
      p,
      'POST',
      `${DELIVERY}/orders.create_bulk`,
      { orders: Array.from({ length: SEED_ORDERS }, () => orderBody()) },
    );
    out.push({
      label: `${environment} ${i}`,
      environment,
      client: p.client,
      orders: bulk.body.results.map((r) => r.order_id!).filter(Boolean),
      cancelled: [],
      claimed: new Set(),
      sales: [],
    });
  }
  return out;
}

/** RSS of every server every SAMPLE_MS, from `start()`. */
class MemorySampler {
  samples: Array<{ atS: number; rssMb: Array<number | null> }> = [];
  private timer: NodeJS.Timeout | undefined;
  startedAt = 0;
  constructor(private readonly servers: () => BenchServer[]) {}
  start(): void {
    this.startedAt = Date.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
  }
  sample() {
    this.samples.push({
      atS: round((Date.now() - this.startedAt) / 1000, 1),
      rssMb: this.servers().map((s) => {
        const v = rssMb(s.pid);
        return v === undefined ? null : round(v, 1);
      }),
    });
  }
  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
  /** The sample nearest to `atS` (first server). */
  at(atS: number): number | null {
    return (
      [...this.samples].sort((a, b) => Math.abs(a.atS - atS) - Math.abs(b.atS - atS))[0]
        ?.rssMb[0] ?? null
    );
  }
  /** Least-squares slope of the first server's RSS from `fromS` on, in MB/min. */
  slope(fromS: number): number | null {
    const pts = this.samples
      .filter((s) => s.atS >= fromS && s.rssMb[0] !== null)
      .map((s) => [s.atS / 60, s.rssMb[0]!] as const);
    if (pts.length < 3) return null;
    const mx = pts.reduce((a, [x]) => a + x, 0) / pts.length;
    const my = pts.reduce((a, [, y]) => a + y, 0) / pts.length;
    const num = pts.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
    const den = pts.reduce((a, [x]) => a + (x - mx) ** 2, 0);
    return den === 0 ? null : round(num / den, 2);
  }
}

/** Median RSS over `seconds` of no load (every 2 s). */
async function resting(server: BenchServer, seconds: number): Promise<number | null> {
  const xs: number[] = [];
  for (let t = 0; t < seconds; t += 2) {
    const v = rssMb(server.pid);
    if (v !== undefined) xs.push(v);
    await sleep(2000);
  }
  return xs.length ? round(median(xs), 1) : null;
}

/** Sums over a config's slices; RSS is the largest seen as a slice ends (still warm from the load). */
interface Tally {
  wallMs: number;
  serverCpuMs: number[];
  clientMs: number;
  machineMs: number | undefined;
  rssMb: number[];
}
const newTally = (n: number): Tally => ({
  wallMs: 0,
  serverCpuMs: new Array<number>(n).fill(0),
  clientMs: 0,
  machineMs: 0,
  rssMb: new Array<number>(n).fill(0),
});

/** Runs the mix for `seconds`, adding its wall time and the CPU of the servers, this process and the machine to `tally`. */
async function slice(
  fleet: Fleet,
  world: World,
  targets: Target[],
  vus: number,
  thinkMs: number,
  seconds: number,
  rec: Recorder,
  tally: Tally,
): Promise<void> {
  const cpu0 = fleet.servers.map((s) => s.cpuMs() ?? 0);
  const machine0 = machineCpuMs();
  const client0 = process.cpuUsage();
  const t0 = Date.now();
  await runMix({ world, targets, vus, thinkMs, seconds, rec });
  tally.wallMs += Date.now() - t0;
  fleet.servers.forEach((s, i) => {
    tally.serverCpuMs[i]! += (s.cpuMs() ?? 0) - cpu0[i]!;
    tally.rssMb[i] = Math.max(tally.rssMb[i]!, rssMb(s.pid) ?? 0);
  });
  const client = process.cpuUsage(client0);
  tally.clientMs += (client.user + client.system) / 1000;
  const machine1 = machineCpuMs();
  tally.machineMs =
    machine0 === undefined || machine1 === undefined || tally.machineMs === undefined
      ? undefined
      : tally.machineMs + machine1 - machine0;
  const dead = fleet.servers.filter((s) => rssMb(s.pid) === undefined);
  if (dead.length > 0)
    throw new Error(
      `server ${dead.map((s) => s.pid).join(', ')} exited during the load:\n${dead[0]!.output().slice(-3000)}`,
    );
}

/** Throughput, errors, CPU and per-operation figures of the slices a recorder and a tally cover. */
function phase(rec: Recorder, t: Tally, vus: number, thinkMs: number, instances: number) {
  const ops = rec.summary(t.wallMs / 1000);
  const total = ops.reduce((a, o) => a + o.n, 0);
  const sum = (k: 'ok' | 'expected4xx' | 'unexpected4xx' | 'unexpected5xx' | 'network') =>
    ops.reduce((a, o) => a + o[k], 0);
  const o = otherCores(
    t.machineMs,
    t.serverCpuMs.reduce((a, b) => a + b, 0) + t.clientMs,
    t.wallMs,
  );
  return {
    seconds: round(t.wallMs / 1000, 1),
    vus,
    thinkMs,
    instances,
    requests: total,
    rps: round(total / (t.wallMs / 1000), 1),
    errors: {
      expected4xx: sum('expected4xx'),
      unexpected4xx: sum('unexpected4xx'),
      unexpected5xx: sum('unexpected5xx'),
      network: sum('network'),
    },
    cpuCores: {
      servers: t.serverCpuMs.map((c) => round(c / t.wallMs, 2)),
      benchClient: round(t.clientMs / t.wallMs, 2),
      others: o === null ? null : round(o, 2),
    },
    rssUnderLoadMb: t.rssMb.map((v) => round(v, 1)),
    ops,
    series: rec.series(),
  };
}

type Phase = ReturnType<typeof phase>;

function printPhase(title: string, p: Phase): void {
  console.log(`\n== ${title} ==`);
  console.log(
    `${p.requests} requests in ${p.seconds} s: ${p.rps} req/s from ${p.vus} clients (think ${p.thinkMs} ms), ${p.instances} instance(s); ` +
      `errors: ${p.errors.expected4xx} expected 4xx, unexpected: ${p.errors.unexpected4xx} 4xx, ${p.errors.unexpected5xx} 5xx, ${p.errors.network} network`,
  );
  console.log(
    `CPU (cores of 2): server(s) ${p.cpuCores.servers.join(' + ')}, bench client ${p.cpuCores.benchClient}, everything else (PostgreSQL, Redis, other tenants) ${p.cpuCores.others ?? 'n/a'}`,
  );
  console.log(
    table(
      [
        'operation',
        'requests',
        'req/s',
        'p50 ms',
        'p99 ms',
        'ok',
        'expected 4xx',
        'unexp. 4xx',
        '5xx',
        'network',
      ],
      p.ops.map((o) => [
        o.op,
        String(o.n),
        o.rps.toFixed(1),
        o.p50Ms.toFixed(1),
        o.p99Ms.toFixed(1),
        String(o.ok),
        String(o.expected4xx),
        String(o.unexpected4xx),
        String(o.unexpected5xx),
        String(o.network),
      ]),
    ),
  );
  for (const o of p.ops) for (const s of o.samples) console.log(`  unexpected, ${o.op}: ${s}`);
}

export async function runSoak(opts: SuiteOptions): Promise<number> {
  const minutes = positive('duration-min', opts.durationMin, 10);
  const vus = Math.round(positive('concurrency', opts.concurrency, 40));
  const seconds = minutes * 60;
  const warmupS = Math.min(120, seconds / 2);
  const cmpS = Math.min(150, Math.max(30, seconds / 4));
  const m = machine();
  console.log(
    `soak: node ${m.node}, ${m.cores} cores (${m.cpu}); ${minutes} min, ${vus} clients, ${PRODUCTION} production + ${STAGING} staging partners; then 1 vs 2 instances, ${cmpS} s each`,
  );
  const problem = await probeBackends();
  if (problem) {
    console.log(`skipped: the soak needs PostgreSQL + Redis: ${problem}`);
    writeResults('soak', false, { skipped: problem });
    return 1;
  }
  const fleet = await startFleet({ scenario: 'postgres', label: 'soak' });
  const server = fleet.servers[0]!;
  try {
    const db = await schemaClient(fleet.schema!);
    console.log(
      `  bulk-loading ${CATALOG_SIZE.toLocaleString('en')} catalog products; creating partners, topping up wallets, seeding ${SEED_ORDERS} orders each`,
    );
    await growCatalogSql(db, 0, CATALOG_SIZE);
    const catalog = CatalogIds.formula(CATALOG_SIZE);
    const listedIdx = catalog.listedIndexes();
    const world: World = {
      partners: await partners(fleet),
      catalog,
      listedIdx,
      sellableIdx: listedIdx.filter(inStock),
      vendorOfIdx: vendorOf,
    };
    const restBefore = await resting(server, 20);
    const prev = previousRun('soak');
    const couriers = await startCourierLoad(
      server,
      db,
      world.partners.filter((p) => p.environment === 'production').flatMap((p) => p.orders),
      { databaseUrl: POSTGRES_URL, schema: fleet.schema! },
    );
    console.log(`  server RSS at rest: ${restBefore} MB; soak running for ${minutes} min`);
    const mem = new MemorySampler(() => fleet.servers);
    const rec = new Recorder(60_000);
    mem.start();
    let shown = 0;
    const progress = setInterval(() => {
      // The last complete minute, once.
      const s = rec.bucket(Math.floor((Date.now() - mem.startedAt) / 60_000) - 1);
      if (s && s.atS > shown && (shown = s.atS))
        console.log(
          `  ${s.atS / 60} min: ${s.rps} req/s, p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms, ${s.unexpected} unexpected; RSS ${rssMb(server.pid)?.toFixed(0)} MB`,
        );
    }, 5_000);
    const soakTally = newTally(1);
    try {
      await slice(fleet, world, [newTarget(server, vus)], vus, THINK_MS, seconds, rec, soakTally);
    } finally {
      clearInterval(progress);
      mem.stop();
    }
    const courierLoad = await couriers.stop();
    const soak = phase(rec, soakTally, vus, THINK_MS, 1);
    const restAfter = await resting(server, 20);
    const memory = {
      restBeforeMb: restBefore,
      afterWarmupMb: mem.at(warmupS),
      endMb: mem.at(seconds),
      restAfterMb: restAfter,
      warmupS,
      slopeAfterWarmupMbPerMin: mem.slope(warmupS),
      samples: mem.samples,
    };
    // 1 against 2 instances in alternating slices (A B B A A B B A), so that load from other
    // processes on the machine falls on both alike; the second instance idles during A slices.
    console.log(
      `\n-- 1 instance against 2: closed loop from ${CMP_VUS} clients, no think time, ${cmpS} s each in 4 alternating slices`,
    );
    const second = await addInstance(fleet);
    const restSecond = await resting(second, 10);
    const t1 = newTarget(server, CMP_VUS);
    const t2 = newTarget(second, CMP_VUS);
    await runMix({
      world,
      targets: [t1, t2],
      vus: CMP_VUS,
      thinkMs: 0,
      seconds: 15,
      rec: new Recorder(),
    });
    const configs = [
      { targets: [t1], rec: new Recorder(1e9), tally: newTally(2) },
      { targets: [t1, t2], rec: new Recorder(1e9), tally: newTally(2) },
    ];
    for (let k = 0; k < 4; k++) {
      for (const c of k % 2 === 0 ? configs : [...configs].reverse())
        await slice(fleet, world, c.targets, CMP_VUS, 0, cmpS / 4, c.rec, c.tally);
      console.log(`  slice ${k + 1}/4 done`);
    }
    const [one, two] = configs.map((c) => phase(c.rec, c.tally, CMP_VUS, 0, c.targets.length)) as [
      Phase,
      Phase,
    ];
    for (const t of [t1, t2]) t.agent.destroy();

    printPhase(`soak, ${minutes} min on ${fleet.title}`, soak);
    console.log('\nper minute:');
    console.log(
      table(
        ['minute', 'req/s', 'p50 ms', 'p99 ms', 'unexpected', 'RSS MB'],
        soak.series.map((s) => [
          String(s.atS / 60),
          s.rps.toFixed(1),
          s.p50Ms.toFixed(1),
          s.p99Ms.toFixed(1),
          String(s.unexpected),
          String(mem.at(s.atS) ?? 'n/a'),
        ]),
      ),
    );
    const slope = memory.slopeAfterWarmupMbPerMin;
    console.log(
      `\nserver RSS: at rest ${restBefore} MB; after warm-up (${warmupS} s) ${memory.afterWarmupMb} MB; end of load ${memory.endMb} MB; at rest after ${restAfter} MB; ` +
        `slope after warm-up ${slope ?? 'n/a'} MB/min (no growth: |slope| < ${FLAT_MB_PER_MIN})  ${slope === null ? '' : Math.abs(slope) < FLAT_MB_PER_MIN ? 'PASS' : 'MISS'}`,
    );
    const unexpected = soak.errors.unexpected4xx + soak.errors.unexpected5xx + soak.errors.network;
    console.log(
      `errors: ${soak.errors.expected4xx} expected 4xx; ${unexpected} unexpected (target 0)  ${unexpected === 0 ? 'PASS' : 'MISS'}`,
    );
    printCourierLoad(courierLoad);
    const figures = Object.fromEntries(soak.ops.map((o) => [`${o.op} p99`, o.p99Ms]));
    const of = `${minutes} min, ${vus} clients`;
    const comparison = compare(prev, figures, GUARD, of);
    printComparison('soak', comparison, GUARD);
    printPhase('1 instance, closed loop', one);
    printPhase('2 instances (same schema and Redis; calls alternate), closed loop', two);
    const byOp = new Map(two.ops.map((o) => [o.op, o]));
    console.log('\n1 → 2 instances per operation:');
    console.log(
      table(
        ['operation', 'req/s ×1', 'req/s ×2', 'ratio', 'p99 ms ×1', 'p99 ms ×2'],
        one.ops.map((o) => {
          const b = byOp.get(o.op);
          return [
            o.op,
            o.rps.toFixed(1),
            b ? b.rps.toFixed(1) : 'n/a',
            b ? `${(b.rps / o.rps).toFixed(2)}x` : 'n/a',
            o.p99Ms.toFixed(1),
            b ? b.p99Ms.toFixed(1) : 'n/a',
          ];
        }),
      ),
    );
    console.log(
      `total: ${one.rps} → ${two.rps} req/s (${(two.rps / one.rps).toFixed(2)}x); RSS under load (instance 1, instance 2) ${one.rssUnderLoadMb.join(' / ')} MB with 1 instance serving, ${two.rssUnderLoadMb.join(' / ')} MB with 2 (second instance at rest after start ${restSecond} MB)`,
    );
    const file = writeResults('soak', false, {
      settings: {
        minutes,
        vus,
        thinkMs: THINK_MS,
        partners: { production: PRODUCTION, staging: STAGING },
        catalogProducts: CATALOG_SIZE,
        cmpVus: CMP_VUS,
        cmpSeconds: cmpS,
        sampleMs: SAMPLE_MS,
        topupGhs: TOPUP_GHS,
        mix: mixWeights(),
      },
      soak,
      memory,
      couriers: courierLoad,
      figures,
      figuresOf: of,
      regressionGuard: comparison,
      compare: { one, two, secondRestMb: restSecond },
    });
    console.log(`\nresults written to ${file}`);
    return 0;
  } catch (err) {
    for (const s of fleet.servers)
      console.error(`server ${s.pid} output (tail):\n${s.output().trim().slice(-2000)}`);
    throw err;
  } finally {
    await runCleanups();
  }
}
