import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { type PgliteEngine, startPglite } from '../../src/platform/db/pglite.ts';

/**
 * Databases a worker made once and hands from one test's app to the next: PostgreSQL schemas (the
 * second CI pass made a schema per app: migrating one took 0.4–0.9 s and dropping it 0.1–0.2 s)
 * and embedded engines (starting one from the migrated dump took about 250 ms of CPU). Emptying
 * one takes a few milliseconds. A database goes back to the pool only when it is as the migrations
 * left it: its tables emptied, its sequences restarted, its session reset, and its catalog (tables,
 * columns, constraints, indexes, triggers, functions, applied migrations) what it was when fresh.
 * One a test changed, or (PostgreSQL) named to another instance or process, is dropped as before.
 */

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

// Counts and sums that any DDL moves: a new object has a new oid, an altered column or default a
// new type, flag or attrdef row, a replaced function a new body, a disabled trigger its flag.
const CATALOG = `select concat_ws('|',
  (select count(*) || ':' || sum(c.oid::int8) || ':' || sum(c.relnatts) from pg_class c
    where c.relnamespace = $1::text::regnamespace),
  (select count(*) || ':' || sum(a.atttypid::int8 * 7 + a.attnum + a.atttypmod
          + a.attnotnull::int * 3 + a.atthasdef::int * 5) from pg_attribute a
     join pg_class c on c.oid = a.attrelid
    where c.relnamespace = $1::text::regnamespace and a.attnum > 0 and not a.attisdropped),
  (select count(*) || ':' || coalesce(sum(d.oid::int8), 0) from pg_attrdef d
     join pg_class c on c.oid = d.adrelid where c.relnamespace = $1::text::regnamespace),
  (select count(*) || ':' || coalesce(sum(oid::int8), 0) from pg_constraint
    where connamespace = $1::text::regnamespace),
  (select count(*) || ':' || coalesce(sum(t.oid::int8 + ascii(t.tgenabled::text)), 0)
     from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where c.relnamespace = $1::text::regnamespace),
  (select count(*) || ':' || coalesce(md5(string_agg(p.prosrc, '' order by p.oid)), '')
     from pg_proc p where p.pronamespace = $1::text::regnamespace),
  (select count(*) || ':' || max(version) from schema_migrations)) as catalog`;

// One statement naming each table that holds a row (a test's few tables, of a hundred).
const PROBE = `select string_agg(format('select %L as t where exists (select from %I)', tablename, tablename),
  ' union all ') as sql from pg_tables where schemaname = $1 and tablename <> 'schema_migrations'`;

const catalogOf = async (q: Query, schema: string) =>
  String((await q(CATALOG, [schema]))[0]!.catalog);

/** Empties a database whose catalog is still `fresh`; false (and nothing emptied) when it is not. */
async function emptied(q: Query, schema: string, fresh: string | undefined): Promise<boolean> {
  if (fresh === undefined || (await catalogOf(q, schema)) !== fresh) return false;
  const probe = String((await q(PROBE, [schema]))[0]!.sql);
  const full = (await q(probe)).map((r) => String(r.t));
  // Replica role: the append-only tables' triggers and the foreign keys' checks stand aside, so
  // the tables empty in any order.
  await q(`set session_replication_role = replica;
    ${full.map((t) => `delete from "${t}";`).join('\n')}
    reset session_replication_role;
    select setval(format('%I', sequencename), start_value, false)
      from pg_sequences where schemaname = '${schema}'`);
  return true;
}

// PostgreSQL: schemas, each connected to on its own.

const idleSchemas: string[] = [];
const freshSchemas = new Map<string, string>();

async function inSchema<T>(schema: string, fn: (q: Query) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: process.env.DATABASE_URL,
    options: `-c search_path=${schema}`,
  });
  await client.connect();
  try {
    return await fn(async (sql, params) => (await client.query(sql, params)).rows);
  } finally {
    await client.end();
  }
}

/** A migrated, empty schema of this worker's, or undefined when there is none yet. */
export function takeSchema(): string | undefined {
  return idleSchemas.pop();
}

/** Notes a schema's catalog right after its first app migrated it, to recognise it when returned. */
export async function noteFresh(schema: string): Promise<void> {
  freshSchemas.set(schema, await inSchema(schema, (q) => catalogOf(q, schema)));
}

/** Keeps a schema whose apps have all closed for the next app, emptied, or drops it. */
export async function returnSchema(schema: string, shared: boolean): Promise<void> {
  const fresh = shared ? undefined : freshSchemas.get(schema);
  if (await inSchema(schema, (q) => emptied(q, schema, fresh)).catch(() => false)) {
    idleSchemas.push(schema);
    return;
  }
  freshSchemas.delete(schema);
  await inSchema(schema, (q) => q(`drop schema if exists ${schema} cascade`));
}

// Embedded: PGlite engines started from the migrated dump.

const idleEngines: PGlite[] = [];
const freshEngines = new WeakMap<PGlite, string>();
const queryOf =
  (engine: PGlite): Query =>
  async (sql, params) =>
    params
      ? (await engine.query<Record<string, unknown>>(sql, params)).rows
      : (await engine.exec(sql)).flatMap((r) => r.rows as Record<string, unknown>[]);

/** An engine for one app, started from `template` or emptied after an earlier app of this worker. */
export async function lendEngine(template: Blob): Promise<PgliteEngine> {
  let engine = idleEngines.pop();
  if (!engine) {
    engine = await startPglite(undefined, template);
    freshEngines.set(engine, await catalogOf(queryOf(engine), 'public'));
  }
  const lent = engine;
  let returned = false;
  return {
    pglite: lent,
    async release() {
      if (returned) return;
      returned = true;
      const reusable = await (async () => {
        // The closed app's session state: prepared statements, settings, advisory locks, temp tables.
        await lent.exec('discard all');
        return emptied(queryOf(lent), 'public', freshEngines.get(lent));
      })().catch(() => false);
      if (reusable) idleEngines.push(lent);
      else await lent.close().catch(() => {});
    },
  };
}
