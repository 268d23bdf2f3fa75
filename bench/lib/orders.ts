/**
 * Delivery request bodies (as in test/delivery/fixtures.ts, copied so the bench does not depend
 * on test files) and the bulk loader that fills `delivery_orders` straight through SQL.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { POSTGRES_URL } from './backends.ts';

export const DELIVERY = '/api/v1/delivery';

const RUN = randomBytes(4).toString('hex');
let counter = 0;

/** A valid recipient-pays order in Accra with both coordinates and a unique order_reference. */
export function orderBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    order_reference: `bench-${RUN}-${++counter}`,
    customer: { name: 'Ama Mensah', phone: '024 123 4567' },
    delivery: {
      address: '12 Oxford Street',
      city: 'Accra',
      region: 'Greater Accra',
      coordinates: { lat: 5.556, lng: -0.182 },
    },
    item: 'Two pairs of sandals',
    pickup: {
      contact_person: 'Kofi Boateng',
      contact_phone: '0201234567',
      address: 'Makola Market',
      coordinates: { lat: 5.549, lng: -0.209 },
    },
    ...overrides,
  };
}

export const partnerPaidBody = () => orderBody({ payment: { payer: 'partner' } });

export const estimateBody = () => ({
  delivery_location: { coordinates: { lat: 5.635, lng: -0.161 }, address: 'East Legon' },
  pickup_location: { address: 'Makola Market', coordinates: { lat: 5.549, lng: -0.209 } },
});

export const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

/**
 * Bench rows in `delivery_orders` of one schema, numbered 0..loaded-1 and spread round-robin over
 * the given apps (the first is the one whose key reads them). Each has one timeline event.
 * Production orders in status `placed`: the sandbox courier only moves staging orders.
 */
export class OrderTable {
  private readonly client: pg.Client;
  loaded = 0;

  constructor(
    private readonly schema: string,
    private readonly partnerId: string,
    private readonly appIds: readonly string[],
  ) {
    if (!/^bench_[a-z0-9]+$/.test(schema)) throw new Error(`unexpected schema ${schema}`);
    this.client = new pg.Client({
      connectionString: POSTGRES_URL,
      options: `-c search_path=${schema}`,
    });
    this.client.on('error', () => {});
  }

  async open(): Promise<void> {
    await this.client.connect();
    await this.client.query(`set maintenance_work_mem = '256MB'`);
  }

  static id(i: number): string {
    return `dlv_0BENCH${String(i).padStart(16, '0')}`;
  }

  /** The id of a random loaded row that the first app owns. */
  randomOwnedId(): string {
    const n = this.appIds.length;
    return OrderTable.id(Math.floor(Math.random() * Math.ceil(this.loaded / n)) * n);
  }

  /** Adds rows until `total` bench rows exist (one INSERT ... SELECT per table), then VACUUM ANALYZE. */
  async growTo(total: number): Promise<{ insertSeconds: number; vacuumSeconds: number }> {
    const from = this.loaded;
    const t0 = performance.now();
    const id = `'dlv_0BENCH' || lpad(i::text, 16, '0')`;
    const at = `timestamptz '2025-01-01 08:00+00' + i * interval '30 seconds'`;
    await this.client.query('begin');
    try {
      await this.client.query(
        `insert into delivery_orders (id, app_id, partner_id, environment, order_reference, status, version,
           customer_name, customer_phone, delivery_address, delivery_city, delivery_region, delivery_lat, delivery_lng,
           item, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng,
           pickup_region, dropoff_region, service_area, payer, payment_status, fee_pesewas,
           pickup_date, estimated_delivery, tracking_token, created_at, updated_at)
         select ${id}, ($3::text[])[1 + i % $4], $5, 'production', 'bulk-' || i, 'placed', 1,
           'Ama Mensah', '+23324' || lpad((i % 10000000)::text, 7, '0'), '12 Oxford Street', 'Accra', 'Greater Accra',
           5.55 + (i % 1000) / 10000.0, -0.18 - (i % 777) / 10000.0,
           'Two pairs of sandals', 'Kofi Boateng', '+233201234567', 'Makola Market', 5.549, -0.209,
           'Greater Accra', 'Greater Accra', 'Osu', 'recipient', 'pending', 2000 + i % 3000,
           (${at})::date, ${at} + interval '8 hours', md5($6 || i::text), ${at}, ${at}
         from generate_series($1::bigint, $2::bigint - 1) as i`,
        [from, total, this.appIds, this.appIds.length, this.partnerId, `${this.schema}-`],
      );
      await this.client.query(
        `insert into delivery_order_events (order_id, version, status, note, at)
         select ${id}, 1, 'placed', null, ${at} from generate_series($1::bigint, $2::bigint - 1) as i`,
        [from, total],
      );
      await this.client.query('commit');
    } catch (err) {
      await this.client.query('rollback').catch(() => {});
      throw err;
    }
    this.loaded = total;
    const t1 = performance.now();
    await this.client.query('vacuum (analyze) delivery_orders');
    await this.client.query('vacuum (analyze) delivery_order_events');
    return { insertSeconds: (t1 - t0) / 1000, vacuumSeconds: (performance.now() - t1) / 1000 };
  }

  async stats(): Promise<{ rows: number; ordersMb: number; eventsMb: number }> {
    const [r] = (
      await this.client.query<{ rows: string; orders: string; events: string }>(
        `select (select count(*) from delivery_orders) as rows,
                pg_total_relation_size('delivery_orders') as orders, pg_total_relation_size('delivery_order_events') as events`,
      )
    ).rows;
    return {
      rows: Number(r!.rows),
      ordersMb: Number(r!.orders) / 2 ** 20,
      eventsMb: Number(r!.events) / 2 ** 20,
    };
  }

  /** The index PostgreSQL's plan for orders.get's lookup uses (it depends on the table's statistics). */
  async getPlanIndex(appId: string): Promise<string> {
    return explainGet(this.client, appId);
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }
}

/** Which index the plan of orders.get's query (repository findOwned) uses, e.g. delivery_orders_pkey. */
export async function explainGet(client: pg.Client, appId: string): Promise<string> {
  const { rows } = await client.query<{ 'QUERY PLAN': string }>(
    `explain select * from delivery_orders where id = $1 and app_id = $2 and environment = 'production'`,
    [OrderTable.id(0), appId],
  );
  const plan = rows.map((r) => r['QUERY PLAN']).join(' ');
  return /using (\S+) on delivery_orders/.exec(plan)?.[1] ?? plan.slice(0, 80);
}

/** explainGet on a bench schema of its own connection; with `analyze`, ANALYZEs the order tables first. */
export async function explainGetIn(
  schema: string,
  appId: string,
  analyze = false,
): Promise<{ index: string; rows: number }> {
  if (!/^bench_[a-z0-9]+$/.test(schema)) throw new Error(`unexpected schema ${schema}`);
  const client = new pg.Client({
    connectionString: POSTGRES_URL,
    options: `-c search_path=${schema}`,
  });
  client.on('error', () => {});
  await client.connect();
  try {
    if (analyze) await client.query('analyze delivery_orders, delivery_order_events');
    const rows = Number(
      (await client.query<{ n: string }>('select count(*) as n from delivery_orders')).rows[0]!.n,
    );
    return { index: await explainGet(client, appId), rows };
  } finally {
    await client.end().catch(() => {});
  }
}
