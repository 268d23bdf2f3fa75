/**
 * Suite `location` (issue 16, live location): position reports ingested per second by one instance
 * (CouriersService.reportPosition with dispatch's trail listener: the courier's newest position, the
 * order's trail point with its bound, the throttled delivery.courier.location event) as active
 * couriers on jobs grow: 100, 1,000 and 10,000, each holding one job. Reports come from
 * --concurrency callers at once (default 8), each for a random courier. In process, on the embedded
 * database and on PostgreSQL (a schema of its own, dropped afterwards). Defaults: --requests 2000
 * (reports per size).
 */
import { randomBytes } from 'node:crypto';
import { CouriersService } from '../../src/modules/couriers/index.ts';
import { CourierTrail } from '../../src/modules/dispatch/trail.ts';
import { WindowWatch } from '../../src/modules/dispatch/window-watch.ts';
import { openDatabase, type Db } from '../../src/platform/db/index.ts';
import { POSTGRES_URL, dropSchema, reachableScenarios } from '../lib/backends.ts';
import {
  positive,
  scenarios,
  writeResults,
  type ScenarioName,
  type SuiteOptions,
} from '../lib/options.ts';
import { round, table } from '../lib/stats.ts';

const SIZES = [100, 1_000, 10_000];
const ACCRA = { lat: 5.6037, lng: -0.187 };
const silent = { warn() {}, info() {}, error() {}, debug() {} } as never;

/** Couriers on duty up to `size`, each holding one assigned production job around Accra. */
async function grow(db: Db, from: number, size: number): Promise<void> {
  const range = [from + 1, size];
  await db.query(
    `insert into couriers (id, name, phone, vehicle, zones, active, on_duty, last_lat, last_lng, last_position_at, created_at, updated_at)
     select 'cou_bench' || lpad(g::text, 6, '0'), 'Bench Courier', '+23324' || lpad(g::text, 7, '0'), 'motorbike', array['greater-accra'],
            true, true, $3, $4, now() - interval '1 hour', now(), now()
       from generate_series($1::int, $2::int) g`,
    [...range, ACCRA.lat, ACCRA.lng],
  );
  await db.query(
    `insert into dispatch_jobs (order_id, environment, pickup_lat, pickup_lng, dropoff_lat, dropoff_lng, zone, state, created_at, updated_at)
     select 'dlv_bench' || lpad(g::text, 6, '0'), 'production', $3::float8, $4::float8, $3::float8 + 0.05, $4::float8, 'greater-accra', 'assigned', now(), now()
       from generate_series($1::int, $2::int) g`,
    [...range, ACCRA.lat, ACCRA.lng],
  );
  await db.query(
    `insert into dispatch_assignments (id, order_id, courier_id, stage, source, started_at, updated_at)
     select 'asg_bench' || lpad(g::text, 6, '0'), 'dlv_bench' || lpad(g::text, 6, '0'), 'cou_bench' || lpad(g::text, 6, '0'), 'picked_up', 'operator', now(), now()
       from generate_series($1::int, $2::int) g`,
    range,
  );
  await db.query('analyze');
}

async function scenario(name: ScenarioName, requests: number, concurrency: number) {
  const schema = name === 'postgres' ? `bench_${randomBytes(5).toString('hex')}` : undefined;
  const db = await openDatabase(
    name === 'postgres'
      ? { kind: 'postgres', url: POSTGRES_URL, poolSize: 8, schema }
      : { kind: 'memory' },
  );
  try {
    // The app the location events are addressed to (the outbox refers to it).
    await db.query(`insert into partners (id, name) values ('par_bench', 'Bench')`);
    await db.query(
      `insert into apps (id, partner_id, name, webhook_secret_sealed) values ('app_bench', 'par_bench', 'Bench', 'x')`,
    );
    const couriers = new CouriersService(db, Date.now);
    // Delivery's read of the order, answered without a query: the suite measures dispatch's side.
    const orders = {
      find: async (id: string) =>
        ({
          id,
          app_id: 'app_bench',
          environment: 'production',
          webhook_url: null,
          order_reference: id,
        }) as never,
    };
    const trail = new CourierTrail(
      db,
      orders,
      couriers,
      new WindowWatch(db, orders, Date.now, silent),
      24,
      Date.now,
      silent,
    );
    couriers.onPosition(trail.onPosition, trail.holdsJob);
    const rows: Array<{ couriers: number; reportsPerSecond: number; events: number }> = [];
    let have = 0;
    for (const size of SIZES) {
      await grow(db, have, size);
      have = size;
      const before = (
        await db.query<{ n: number }>(
          `select count(*)::int as n from outbox_events where type = 'delivery.courier.location'`,
        )
      )[0]!.n;
      let next = 0;
      const caller = async () => {
        while (next++ < requests) {
          const id = `cou_bench${String(1 + Math.floor(Math.random() * size)).padStart(6, '0')}`;
          await couriers.reportPosition(id, {
            lat: ACCRA.lat + Math.random() * 0.05,
            lng: ACCRA.lng,
            at: new Date(),
          });
        }
      };
      const t0 = performance.now();
      await Promise.all(Array.from({ length: concurrency }, caller));
      const seconds = (performance.now() - t0) / 1000;
      const events =
        (
          await db.query<{ n: number }>(
            `select count(*)::int as n from outbox_events where type = 'delivery.courier.location'`,
          )
        )[0]!.n - before;
      rows.push({ couriers: size, reportsPerSecond: round(requests / seconds, 1), events });
      console.log(
        `  ${name}: ${size} couriers on jobs: ${round(requests / seconds, 1)} reports/s (${events} location events)`,
      );
    }
    return rows;
  } finally {
    await db.close();
    if (schema) await dropSchema(schema);
  }
}

export async function runLocation(opts: SuiteOptions): Promise<number> {
  const requests = positive('requests', opts.requests, 2000);
  const concurrency = positive('concurrency', opts.concurrency, 8);
  const results: Record<string, unknown> = {};
  for (const name of await reachableScenarios(scenarios(opts.scenario))) {
    console.log(`location ingest, ${name}, ${concurrency} callers`);
    const rows = await scenario(name, requests, concurrency);
    console.log(
      table(
        ['couriers on jobs', 'reports/s', 'location events'],
        rows.map((r) => [String(r.couriers), String(r.reportsPerSecond), String(r.events)]),
      ),
    );
    results[name] = rows;
  }
  console.log(
    `results: ${writeResults('location', false, { requests, concurrency, sizes: SIZES, results })}`,
  );
  return 0;
}
