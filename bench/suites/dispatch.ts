/**
 * Suite `dispatch` (issue 16): the time dispatch takes to choose a courier for a new production order
 * and create the offer (Offers.offer: the candidate query, the couriers' loads, the ranking and the
 * offer's transaction), as on-duty couriers with fresh positions grow: 100, 1,000 and 10,000 around
 * Accra, all in the order's zone. In process, on the embedded database and on PostgreSQL (a schema of
 * its own, dropped afterwards). Prints p50/p99 per size and the plan of the candidate query at the
 * largest size. Defaults: --requests 300 (offers per size).
 */
import { randomBytes } from 'node:crypto';
import { openDatabase, type Db, type Queryable } from '../../src/platform/db/index.ts';
import { CouriersService } from '../../src/modules/couriers/index.ts';
import { Offers } from '../../src/modules/dispatch/offers.ts';
import { dispatchRepository } from '../../src/modules/dispatch/repository.ts';
import { POSTGRES_URL, dropSchema, reachableScenarios } from '../lib/backends.ts';
import {
  positive,
  scenarios,
  writeResults,
  type ScenarioName,
  type SuiteOptions,
} from '../lib/options.ts';
import { ms, percentile, round, table } from '../lib/stats.ts';

const SIZES = [100, 1_000, 10_000];
const ACCRA = { lat: 5.6037, lng: -0.187 };
const silent = { warn() {}, info() {}, error() {}, debug() {} } as never;

/** Remembers the last courier query, so its plan can be shown with the parameters it ran with. */
function recording(db: Db): {
  db: Db;
  last: () => { sql: string; params: readonly unknown[] } | undefined;
} {
  let last: { sql: string; params: readonly unknown[] } | undefined;
  const query: Queryable['query'] = (sql, params) => {
    if (/from couriers/.test(sql)) last = { sql, params: params ?? [] };
    return db.query(sql, params);
  };
  return { db: { ...db, query }, last: () => last };
}

/** Couriers up to `size`, scattered within about 15 km of central Accra, on duty and seen just now. */
async function grow(db: Db, from: number, size: number): Promise<void> {
  await db.query(
    `insert into couriers (id, name, phone, vehicle, zones, active, on_duty, last_lat, last_lng, last_position_at, created_at, updated_at)
     select 'cou_bench' || lpad(g::text, 6, '0'), 'Bench Courier', '+23324' || lpad(g::text, 7, '0'),
            (array['motorbike', 'car', 'van'])[1 + g % 3], array['greater-accra'], true, true,
            $3 + (random() - 0.5) * 0.27, $4 + (random() - 0.5) * 0.27, now(), now(), now()
       from generate_series($1::int, $2::int) g`,
    [from + 1, size, ACCRA.lat, ACCRA.lng],
  );
  await db.query('analyze couriers');
}

async function scenario(name: ScenarioName, requests: number) {
  const schema = name === 'postgres' ? `bench_${randomBytes(5).toString('hex')}` : undefined;
  const raw = await openDatabase(
    name === 'postgres'
      ? { kind: 'postgres', url: POSTGRES_URL, poolSize: 4, schema }
      : { kind: 'memory' },
  );
  const { db, last } = recording(raw);
  try {
    const offers = new Offers(
      db,
      new CouriersService(db, Date.now),
      {
        offerSeconds: 45,
        lateMinutes: 10,
        batchMaxStops: 4,
        batchWindowSeconds: 600,
        windowLeadMinutes: 30,
        positionMaxAgeMinutes: 15,
        intervalMs: 0,
        locationRetentionHours: 24,
        sandboxStepSeconds: 0,
        sandboxForProduction: false,
      },
      Date.now,
      silent,
    );
    const rows: Array<{ couriers: number; p50Ms: number; p99Ms: number; offered: number }> = [];
    let plan = '';
    let have = 0;
    for (const size of SIZES) {
      await grow(db, have, size);
      have = size;
      const samples: number[] = [];
      let offered = 0;
      for (let i = 0; i < requests + 20; i++) {
        const orderId = `dlv_bench_${size}_${i}`;
        const pickup = {
          lat: ACCRA.lat + (Math.random() - 0.5) * 0.2,
          lng: ACCRA.lng + (Math.random() - 0.5) * 0.2,
        };
        const insert = dispatchRepository.insertJobStatement(
          {
            orderId,
            environment: 'production',
            lat: pickup.lat,
            lng: pickup.lng,
            dropoff: null,
            zone: 'greater-accra',
            now: new Date(),
            dueAt: new Date(),
            dropoffDeadline: null,
            missAt: null,
            pickupReadyAt: null,
          },
          1,
        );
        await db.query(insert.sql, insert.params);
        const job = (await dispatchRepository.job(db, orderId))!;
        const t0 = performance.now();
        const courier = await offers.offer(job);
        const elapsed = performance.now() - t0;
        if (i >= 20) {
          samples.push(elapsed);
          if (courier) offered++;
        }
      }
      rows.push({
        couriers: size,
        p50Ms: round(percentile(samples, 50), 3),
        p99Ms: round(percentile(samples, 99), 3),
        offered,
      });
      console.log(
        `  ${name}: ${size} couriers: p50 ${ms(percentile(samples, 50))} ms, p99 ${ms(percentile(samples, 99))} ms (${offered}/${requests} offered)`,
      );
      if (size === SIZES.at(-1)) {
        const q = last()!;
        plan = (await raw.query<Record<string, string>>(`explain analyze ${q.sql}`, q.params))
          .map((r) => Object.values(r)[0])
          .join('\n');
      }
    }
    return { rows, plan };
  } finally {
    await raw.close();
    if (schema) await dropSchema(schema);
  }
}

export async function runDispatch(opts: SuiteOptions): Promise<number> {
  const requests = positive('requests', opts.requests, 300);
  const results: Record<string, unknown> = {};
  for (const name of await reachableScenarios(scenarios(opts.scenario))) {
    console.log(`dispatch decision time, ${name}`);
    const { rows, plan } = await scenario(name, requests);
    console.log(
      table(
        ['couriers on duty', 'p50 ms', 'p99 ms', 'offered'],
        rows.map((r) => [String(r.couriers), ms(r.p50Ms), ms(r.p99Ms), String(r.offered)]),
      ),
    );
    console.log(`candidate query plan at ${SIZES.at(-1)} couriers (${name}):\n${plan}\n`);
    results[name] = { rows, plan };
  }
  console.log(`results: ${writeResults('dispatch', false, { requests, sizes: SIZES, results })}`);
  return 0;
}
