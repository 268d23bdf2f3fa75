/**
 * Suite `webhooks` (issue 6): events per second delivered to a local receiver, and the lag from
 * an event's commit to its first attempt reaching the receiver (p50/p99).
 * Per run: fresh server(s) with the dispatcher on and the sandbox courier off (so the only events
 * are delivery.order.created); a staging app whose webhook_url is the bench's receiver on
 * 127.0.0.1 (answers 204 at once); N orders made with orders.create_bulk (100 per call, --concurrency
 * calls in flight, default 2), then the bench waits until every order's event has arrived.
 * Lag = arrival at the receiver − payload created_at (stamped as the order transaction starts).
 * Before that burst, a trickle of 100 single orders.create at 10/s gives the lag without a backlog.
 * Runs: embedded and PostgreSQL (+Redis) with WEBHOOK_POLL_MS 250 (default) and 20; PostgreSQL
 * with two server processes sharing one schema (both dispatch; the bulk calls alternate between
 * them), where every webhook-id must arrive once; one PostgreSQL run with
 * WEBHOOK_ENDPOINT_CONCURRENCY 16 (default 4) to show what that limit costs with one endpoint.
 * Options: --requests N orders (default 2000), --concurrency bulk calls (2), --scenario.
 */
import { probeBackends } from '../lib/backends.ts';
import { runCleanups } from '../lib/cleanup.ts';
import {
  cleanKeyAfter,
  otherCores,
  schemaClient,
  startFleet,
  type Fleet,
} from '../lib/instances.ts';
import { DELIVERY, orderBody } from '../lib/orders.ts';
import {
  machine,
  positive,
  scenarios,
  writeResults,
  type ScenarioName,
  type SuiteOptions,
} from '../lib/options.ts';
import { call, type BenchPartner } from '../lib/partner.ts';
import { HookReceiver, wallNow } from '../lib/receiver.ts';
import { admin, BENCH_RATE_LIMIT, machineCpuMs } from '../lib/server.ts';
import { percentile, round, table } from '../lib/stats.ts';
import { PartnerClient } from '../../packages/sdk/src/index.ts';

interface RunSpec {
  scenario: ScenarioName;
  instances: number;
  pollMs: number;
  endpointConcurrency?: number;
}

const RUNS: RunSpec[] = [
  { scenario: 'embedded', instances: 1, pollMs: 250 },
  { scenario: 'embedded', instances: 1, pollMs: 20 },
  { scenario: 'postgres', instances: 1, pollMs: 250 },
  { scenario: 'postgres', instances: 1, pollMs: 20 },
  { scenario: 'postgres', instances: 2, pollMs: 250 },
  { scenario: 'postgres', instances: 2, pollMs: 20 },
  { scenario: 'postgres', instances: 1, pollMs: 20, endpointConcurrency: 16 },
];
/** Stop waiting when nothing new has arrived for this long. */
const STALL_MS = 60_000;
const WARMUP_ORDERS = 100;
/** The trickle phase: single orders.create calls at a steady low rate, for the lag without a backlog. */
const TRICKLE_ORDERS = 100;
const TRICKLE_PER_S = 10;

const label = (r: RunSpec) =>
  `${r.scenario} ×${r.instances} poll ${r.pollMs} ms${r.endpointConcurrency ? ` endpoint conc. ${r.endpointConcurrency}` : ''}`;

type Bulk = {
  summary: { created: number };
  results: Array<{ ok: boolean; order_id: string | null; code?: string }>;
};

async function hookPartner(fleet: Fleet, url: string): Promise<BenchPartner[]> {
  const server = fleet.servers[0]!;
  const partner = await admin<{ partner_id: string }>(server, 'POST', '/partners', {
    name: 'Bench Webhooks',
  });
  await admin(server, 'PATCH', `/partners/${partner.partner_id}`, {
    rate_limits: { reads_per_minute: BENCH_RATE_LIMIT, writes_per_minute: BENCH_RATE_LIMIT },
  });
  const app = await admin<{ app_id: string }>(
    server,
    'POST',
    `/partners/${partner.partner_id}/apps`,
    { name: 'Bench Hooks', webhook_url: url },
  );
  const key = await admin<{ key_id: string; api_key: string; signing_secret: string }>(
    server,
    'POST',
    `/apps/${app.app_id}/keys`,
    { environment: 'staging', scopes: ['*'] },
  );
  cleanKeyAfter(fleet, key.key_id);
  // One client per instance: bulk calls alternate between them.
  return fleet.servers.map((s) => ({
    partnerId: partner.partner_id,
    appId: app.app_id,
    otherAppIds: [],
    keyId: key.key_id,
    apiKey: key.api_key,
    signingSecret: key.signing_secret,
    client: new PartnerClient({
      apiKey: key.api_key,
      signingSecret: key.signing_secret,
      baseUrl: s.url,
      timeoutMs: 120_000,
    }),
  }));
}

/** Creates `total` orders with create_bulk, `concurrency` calls in flight, alternating instances; answers their ids. */
async function createOrders(
  clients: BenchPartner[],
  total: number,
  concurrency: number,
): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  const calls = Math.ceil(total / 100);
  const worker = async () => {
    for (let k = next++; k < calls; k = next++) {
      const size = Math.min(100, total - k * 100);
      const res = await call<Bulk>(
        clients[k % clients.length]!,
        'POST',
        `${DELIVERY}/orders.create_bulk`,
        { orders: Array.from({ length: size }, () => orderBody()) },
      );
      if (res.body.summary.created !== size)
        throw new Error(
          `create_bulk created ${res.body.summary.created}/${size}: ${JSON.stringify(res.body.results.find((r) => !r.ok))}`,
        );
      for (const r of res.body.results) ids.push(r.order_id!);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ids;
}

/** One orders.create every 1000/TRICKLE_PER_S ms (alternating instances): a steady trickle, no backlog. */
async function trickle(clients: BenchPartner[]): Promise<string[]> {
  const ids: string[] = [];
  const start = wallNow();
  for (let i = 0; i < TRICKLE_ORDERS; i++) {
    const wait = start + (i * 1000) / TRICKLE_PER_S - wallNow();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const res = await call<{ data: { order_details: { order_id: string } } }>(
      clients[i % clients.length]!,
      'POST',
      `${DELIVERY}/orders.create`,
      orderBody(),
    );
    ids.push(res.body.data.order_details.order_id);
  }
  return ids;
}

const lagStats = (lags: number[]) => ({
  p50: round(percentile(lags, 50), 1),
  p99: round(percentile(lags, 99), 1),
  max: round(Math.max(...lags), 1),
  min: round(Math.min(...lags), 1),
});

/** Waits until every id's event has arrived on `path`, or nothing new came for STALL_MS. */
async function waitFor(rx: HookReceiver, path: string, ids: ReadonlySet<string>): Promise<void> {
  let seen = -1;
  let since = Date.now();
  for (;;) {
    const got = new Set(
      rx
        .on(path)
        .filter((a) => a.orderId && ids.has(a.orderId))
        .map((a) => a.orderId),
    );
    if (got.size >= ids.size) return;
    if (rx.arrivals.length !== seen) [seen, since] = [rx.arrivals.length, Date.now()];
    else if (Date.now() - since > STALL_MS) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function oneRun(spec: RunSpec, rx: HookReceiver, total: number, concurrency: number) {
  // The receiver is on loopback: a local destination, allowed for staging events only with the switch.
  const env: Record<string, string> = {
    WEBHOOK_DISPATCHER: 'on',
    WEBHOOK_POLL_MS: String(spec.pollMs),
    SANDBOX_COURIER_STEP_SECONDS: '0',
    WEBHOOK_LOCAL_DESTINATIONS: 'on',
  };
  if (spec.endpointConcurrency) env.WEBHOOK_ENDPOINT_CONCURRENCY = String(spec.endpointConcurrency);
  const fleet = await startFleet({
    scenario: spec.scenario,
    instances: spec.instances,
    env,
    label: label(spec),
  });
  try {
    const tag = Math.random().toString(36).slice(2, 8);
    const clients = await hookPartner(fleet, `${rx.url}/hook/${tag}`);
    const path = `/hook/${tag}`;
    // Warm-up (JIT, pools, key cache, dispatcher sockets): its events are waited for, then ignored.
    const warm = new Set(await createOrders(clients, WARMUP_ORDERS, 1));
    await waitFor(rx, path, warm);
    const slow = new Set(await trickle(clients));
    await waitFor(rx, path, slow);
    const trickleLag = lagStats(
      rx
        .on(path)
        .filter((a) => a.orderId && slow.has(a.orderId))
        .map((a) => a.at - a.createdAt),
    );
    console.log(
      `  trickle of ${slow.size} orders at ${TRICKLE_PER_S}/s: lag p50 ${trickleLag.p50} ms, p99 ${trickleLag.p99} ms`,
    );
    const cpu0 = fleet.servers.map((s) => s.cpuMs() ?? 0);
    const machine0 = machineCpuMs();
    const client0 = process.cpuUsage();
    const t0 = wallNow();
    const ids = new Set(await createOrders(clients, total, concurrency));
    const createdAt = wallNow();
    console.log(
      `  ${ids.size} orders created in ${((createdAt - t0) / 1000).toFixed(1)} s; waiting for their events`,
    );
    await waitFor(rx, path, ids);
    const mine = rx.on(path).filter((a) => a.orderId && ids.has(a.orderId));
    const end = mine.length > 0 ? Math.max(...mine.map((a) => a.at)) : wallNow();
    const wall = end - t0;
    const serverCpu = fleet.servers.map((s, i) => (s.cpuMs() ?? 0) - cpu0[i]!);
    const client = process.cpuUsage(client0);
    const machine1 = machineCpuMs();
    // First arrival per webhook-id; repeats are duplicates.
    const first = new Map<string, (typeof mine)[number]>();
    let duplicates = 0;
    for (const a of mine) {
      if (first.has(a.webhookId)) duplicates++;
      else first.set(a.webhookId, a);
    }
    const lags = [...first.values()].map((a) => a.at - a.createdAt);
    const delivered = new Set([...first.values()].map((a) => a.orderId)).size;
    let db: Record<string, unknown> | null = null;
    if (fleet.schema) {
      // Idle server connections report their table statistics within 10 s (PostgreSQL 15's idle flush).
      await new Promise((r) => setTimeout(r, 11_000));
      const pgc = await schemaClient(fleet.schema);
      const [row] = (
        await pgc.query<{
          attempts: string;
          events: string;
          statuses: Record<string, number>;
          updates: string;
        }>(
          `select (select count(*) from webhook_attempts w join outbox_events e on e.id = w.event_id where e.app_id = $1) as attempts,
                (select count(*) from outbox_events where app_id = $1) as events,
                (select json_object_agg(delivery_status, n) from (select delivery_status, count(*) as n from outbox_events where app_id = $1 group by 1) s) as statuses,
                (select n_tup_upd from pg_stat_user_tables where schemaname = current_schema() and relname = 'outbox_events') as updates`,
          [clients[0]!.appId],
        )
      ).rows;
      // Row updates per event: a claim and a finish when sent at once; each hand-back (release) and re-claim adds two.
      db = {
        attempts: Number(row!.attempts),
        events: Number(row!.events),
        statuses: row!.statuses,
        outboxUpdatesPerEvent: round(Number(row!.updates) / Number(row!.events), 1),
      };
    }
    const machineMs =
      machine1 !== undefined && machine0 !== undefined ? machine1 - machine0 : undefined;
    const own = serverCpu.reduce((a, b) => a + b, 0) + (client.user + client.system) / 1000;
    return {
      run: label(spec),
      ...spec,
      title: fleet.title,
      orders: ids.size,
      delivered,
      duplicates,
      createSeconds: round((createdAt - t0) / 1000, 2),
      createdPerS: round(ids.size / ((createdAt - t0) / 1000), 1),
      deliveredPerS: round(delivered / (wall / 1000), 1),
      deliveredVsCreated: round(
        delivered / (wall / 1000) / (ids.size / ((createdAt - t0) / 1000)),
        3,
      ),
      tailSeconds: round((end - createdAt) / 1000, 2),
      lagMs: lagStats(lags),
      trickleLagMs: trickleLag,
      serverCpuCores: serverCpu.map((c) => round(c / wall, 2)),
      otherCores: (() => {
        const o = otherCores(machineMs, own, wall);
        return o === null ? null : round(o, 2);
      })(),
      db,
    };
  } catch (err) {
    for (const s of fleet.servers)
      console.error(`server ${s.pid} output (tail):\n${s.output().trim().slice(-2000)}`);
    throw err;
  } finally {
    await runCleanups();
  }
}

type Result = Awaited<ReturnType<typeof oneRun>>;

function print(results: Result[]): void {
  console.log('\n== webhooks: delivery.order.created events to a local receiver (answers 204) ==');
  const rows = results.map((r) => [
    r.run,
    `${r.delivered}/${r.orders}`,
    r.createdPerS.toFixed(0),
    r.deliveredPerS.toFixed(0),
    `${r.deliveredVsCreated.toFixed(2)}x`,
    r.tailSeconds.toFixed(1),
    r.trickleLagMs.p50.toFixed(0),
    r.trickleLagMs.p99.toFixed(0),
    r.lagMs.p50.toFixed(0),
    r.lagMs.p99.toFixed(0),
    String(r.duplicates),
    r.db ? String(r.db.attempts) : 'n/a',
    r.serverCpuCores.map((c) => c.toFixed(2)).join('+'),
    r.otherCores === null ? 'n/a' : r.otherCores.toFixed(2),
  ]);
  console.log(
    table(
      [
        'run',
        'delivered',
        'created/s',
        'delivered/s',
        'deliv/created',
        'tail s',
        'trickle lag p50',
        'trickle p99',
        'burst lag p50',
        'burst p99',
        'dup ids',
        'attempts (db)',
        'server cores',
        'other cores',
      ],
      rows,
    ),
  );
  for (const r of results)
    if (r.db)
      console.log(
        `  ${r.run}: outbox ${JSON.stringify(r.db.statuses)} for ${r.db.events} events (incl. ${WARMUP_ORDERS} warm-up and ${TRICKLE_ORDERS} trickle), ${r.db.attempts} attempts recorded, ${r.db.outboxUpdatesPerEvent} outbox row updates per event`,
      );
}

const NOTES = [
  'created/s is the producer (create_bulk) rate; delivered/s is orders delivered ÷ time from the first bulk call to the last arrival; deliv/created is their ratio (1.00 = the dispatcher keeps up with the producer). tail = last arrival − end of creation.',
  `trickle lag: ${TRICKLE_ORDERS} single orders.create at ${TRICKLE_PER_S}/s before the burst (no backlog: the poll interval and the send); burst lag: the N create_bulk orders, mostly time queued behind the backlog.`,
  'lag = arrival at the receiver − the payload created_at, which is stamped as the order transaction starts (so it includes that commit, a few ms). Server and receiver share one clock.',
  'how the dispatcher (src/modules/webhooks/dispatcher.ts as of this run) paces one endpoint: it claims up to WEBHOOK_CONCURRENCY (32) due events, claims again at once while claims find work, and sleeps WEBHOOK_POLL_MS after an empty claim (commits do not wake it). Per destination origin at most WEBHOOK_ENDPOINT_CONCURRENCY (4) sends run at a time with a queue of 4x that behind them; claimed events beyond the queue are handed back until the next poll. Every run here has one endpoint, the worst case for that limit.',
  'outbox row updates per event (pg_stat_user_tables n_tup_upd over every event of the run): 2 when each event is sent as soon as it is claimed (claim, finish); a turn waited for in the endpoint queue adds a lease renewal, a hand-back adds a release and a re-claim.',
  'dup ids counts webhook-ids that arrived more than once; attempts (db) is webhook_attempts rows for the app (warm-up included), which is orders + warm-up + trickle when nothing was sent twice.',
];

export async function runWebhooks(opts: SuiteOptions): Promise<number> {
  const total = Math.round(positive('requests', opts.requests, 2000));
  const concurrency = Math.round(positive('concurrency', opts.concurrency, 2));
  const wanted = scenarios(opts.scenario);
  const m = machine();
  console.log(
    `webhooks benchmark: node ${m.node}, ${m.cores} cores (${m.cpu}); ${total} orders per run via create_bulk (${concurrency} calls in flight)`,
  );
  const skipped: Array<{ scenario: string; skipped: string }> = [];
  let failed = false;
  if (wanted.includes('postgres')) {
    const problem = await probeBackends();
    if (problem) {
      console.log(`\n-- postgres: skipped (PostgreSQL + Redis needed): ${problem}`);
      skipped.push({ scenario: 'postgres', skipped: problem });
      if (wanted.length === 1) failed = true;
    }
  }
  const rx = await new HookReceiver().start();
  const results: Result[] = [];
  try {
    for (const spec of RUNS.filter(
      (r) => wanted.includes(r.scenario) && !skipped.some((s) => s.scenario === r.scenario),
    )) {
      const r = await oneRun(spec, rx, total, concurrency);
      console.log(
        `  ${r.delivered}/${r.orders} delivered, ${r.deliveredPerS} events/s, lag p50 ${r.lagMs.p50} ms p99 ${r.lagMs.p99} ms, ${r.duplicates} duplicate(s)`,
      );
      results.push(r);
      rx.arrivals = [];
    }
  } finally {
    await rx.close();
  }
  print(results);
  for (const s of skipped) console.log(`\nskipped: ${s.scenario}: ${s.skipped}`);
  for (const n of NOTES) console.log(`note: ${n}`);
  const incomplete = results.filter((r) => r.delivered < r.orders);
  for (const r of incomplete)
    console.log(
      `MISS: ${r.run}: only ${r.delivered}/${r.orders} events arrived (no progress for ${STALL_MS / 1000} s)`,
    );
  const file = writeResults('webhooks', false, {
    settings: {
      orders: total,
      bulkConcurrency: concurrency,
      warmupOrders: WARMUP_ORDERS,
      stallMs: STALL_MS,
    },
    runs: results,
    notes: NOTES,
    skipped,
  });
  console.log(`\nresults written to ${file}`);
  return failed ? 1 : 0;
}
