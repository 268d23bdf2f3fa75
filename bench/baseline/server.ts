/**
 * The bare baseline of the headline suite: Fastify + pg (or PGlite) with no authentication, no
 * validation, no business logic, doing the database work of the platform operations it stands for.
 *
 *   GET  /noop        → {"status":"ok"}                        (no database)
 *   GET  /orders/:id  → one primary-key select, the row as JSON  (404 when absent)
 *   POST /orders      → one single-row insert of the order in the body, the row as JSON (201)
 *   GET  /orders/:id/track → one primary-key select of what tracking shows, the phone masked
 *   GET  /catalog?limit=N  → a first page of listed products and their variants (catalog.ts)
 *
 * The tables are `bench_baseline_orders` (see table.ts), created and seeded with SEED_ROWS rows at
 * start, and the catalog's (catalog.ts), seeded with CATALOG_ROWS products.
 * The bench spawns this file as a child process, like the platform: `node --import tsx bench/baseline/server.ts`.
 *
 * Environment:
 *   PORT, HOST                where to listen (the bench sets them)
 *   BASELINE_DATABASE_URL     a postgres:// URL, or `memory:` for PGlite in memory (the embedded comparison)
 *   BASELINE_SCHEMA           PostgreSQL: the schema to create and use (search_path); required there
 *   BASELINE_POOL_SIZE        PostgreSQL: pg.Pool size (default 20)
 *   BASELINE_SEED_ROWS        rows to seed (default SEED_ROWS)
 */
import { randomBytes } from 'node:crypto';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import Fastify from 'fastify';
import pg from 'pg';
import {
  CATALOG_DDL,
  CATALOG_ROWS,
  CATALOG_SEED_SQL,
  CATALOG_TABLES,
  catalogPage,
} from './catalog.ts';
import { APP_ID, DDL, PARTNER_ID, SEED_ROWS, SEED_SQL, TABLE } from './table.ts';

type Query = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

interface Store {
  query: Query;
  /** A whole script (several statements, no parameters). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  describe: string;
}

// int8 as a number (the platform does the same), so rows serialise as plain JSON.
const int8 = (value: string) => Number(value);

async function openStore(): Promise<Store> {
  const url = process.env.BASELINE_DATABASE_URL ?? 'memory:';
  if (url === 'memory:') {
    // pg_trgm: the table's reference search index (table.ts), as the platform's PGlite loads it.
    const db = new PGlite({ parsers: { [types.INT8]: int8 }, extensions: { pg_trgm } });
    await db.waitReady;
    return {
      query: async (sql, params) => (await db.query<Record<string, unknown>>(sql, params)).rows,
      exec: async (sql) => void (await db.exec(sql)),
      close: () => db.close(),
      describe: 'PGlite in memory',
    };
  }
  const schema = process.env.BASELINE_SCHEMA ?? '';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new Error('BASELINE_SCHEMA must be a lower-case SQL identifier');
  const max = Number(process.env.BASELINE_POOL_SIZE ?? 20);
  const pool = new pg.Pool({
    connectionString: url,
    max,
    options: `-c search_path=${schema}`,
    types: {
      getTypeParser: (oid: number, format?: string) =>
        oid === 20 ? int8 : pg.types.getTypeParser(oid, format as 'text'),
    },
  });
  pool.on('error', () => {});
  await pool.query(`create schema if not exists ${schema}`);
  return {
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    // Without parameters pg uses the simple query protocol, which takes a whole script.
    exec: async (sql) => void (await pool.query(sql)),
    close: () => pool.end(),
    describe: `PostgreSQL schema ${schema}, pool of ${max}`,
  };
}

// Ids sortable by time, like the platform's ULIDs: inserts land on the right edge of the primary key.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let seq = 0;
function newId(): string {
  let t = Date.now();
  let time = '';
  for (let i = 0; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  const rand = randomBytes(10);
  let tail = '';
  for (let i = 0; i < 12; i++) tail += CROCKFORD[rand[i % 10]! % 32];
  return `dlv_${time}${tail}${(seq++ % 10_000).toString().padStart(4, '0')}`;
}

const INSERT = `insert into ${TABLE} (id, app_id, partner_id, environment, order_reference,
  customer_name, customer_phone, delivery_address, delivery_city, delivery_region, delivery_lat, delivery_lng,
  item, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng,
  pickup_region, dropoff_region, service_area,
  payer, payment_status, fee_pesewas, pickup_date, estimated_delivery, tracking_token)
values ($1, $2, $3, 'production', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
  'Greater Accra', 'Greater Accra', 'Osu', 'recipient', 'pending', 2550, current_date, now() + interval '8 hours', $18)
returning *`;

/** The orders.create request body, read as is (no validation: the baseline trusts its caller). */
interface OrderBody {
  order_reference: string;
  customer: { name: string; phone: string };
  delivery: {
    address: string;
    city: string;
    region: string;
    coordinates?: { lat: number; lng: number };
  };
  item: string;
  pickup: {
    contact_person: string;
    contact_phone: string;
    address?: string;
    coordinates?: { lat: number; lng: number };
  };
}

async function main(): Promise<void> {
  const store = await openStore();
  await store.exec(DDL);
  await store.query(SEED_SQL, [Number(process.env.BASELINE_SEED_ROWS ?? SEED_ROWS)]);
  await store.exec(CATALOG_DDL);
  for (const sql of CATALOG_SEED_SQL) await store.query(sql, [CATALOG_ROWS]);
  if (!store.describe.startsWith('PGlite'))
    await store.query(`analyze ${[TABLE, ...CATALOG_TABLES].join(', ')}`);

  const app = Fastify({ logger: false });
  app.get('/noop', async () => ({ status: 'ok' }));
  app.get<{ Params: { id: string } }>('/orders/:id', async (request, reply) => {
    const [row] = await store.query(`select * from ${TABLE} where id = $1`, [request.params.id]);
    if (!row) return reply.code(404).send({ error: 'not found' });
    return row;
  });
  app.get<{ Params: { id: string } }>('/orders/:id/track', async (request, reply) => {
    const [row] = await store.query(
      `select id, order_reference, status, customer_name, customer_phone, estimated_delivery, created_at
         from ${TABLE} where id = $1`,
      [request.params.id],
    );
    if (!row) return reply.code(404).send({ error: 'not found' });
    const phone = String(row.customer_phone);
    return {
      order_id: row.id,
      order_reference: row.order_reference,
      status: row.status,
      customer: {
        name: row.customer_name,
        phone: `${'*'.repeat(phone.length - 4)}${phone.slice(-4)}`,
      },
      estimated_delivery_time: row.estimated_delivery,
      timeline: [{ status: 'placed', at: row.created_at }],
    };
  });
  app.get<{ Querystring: { limit?: string } }>('/catalog', async (request) =>
    catalogPage(store.query, Number(request.query.limit ?? 50)),
  );
  app.post<{ Body: OrderBody }>('/orders', async (request, reply) => {
    const b = request.body;
    const [row] = await store.query(INSERT, [
      newId(),
      APP_ID,
      PARTNER_ID,
      b.order_reference,
      b.customer.name,
      b.customer.phone,
      b.delivery.address,
      b.delivery.city,
      b.delivery.region,
      b.delivery.coordinates?.lat ?? null,
      b.delivery.coordinates?.lng ?? null,
      b.item,
      b.pickup.contact_person,
      b.pickup.contact_phone,
      b.pickup.address ?? null,
      b.pickup.coordinates?.lat ?? null,
      b.pickup.coordinates?.lng ?? null,
      randomBytes(18).toString('base64url'),
    ]);
    return reply.code(201).send(row);
  });

  await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
  console.log(
    `bare baseline on ${store.describe}, listening on ${process.env.HOST ?? '127.0.0.1'}:${process.env.PORT}`,
  );
  const stop = () => {
    void app
      .close()
      .then(() => store.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
