import pg from 'pg';

/**
 * PostgreSQL schemas a worker migrated once and hands from one test's app to the next (the second
 * CI pass makes a schema per app: migrating one took 0.4–0.9 s and dropping it 0.1–0.2 s, where
 * emptying it takes a few milliseconds). A schema goes back to the pool only when it is as the
 * migrations left it: its tables emptied, its sequences restarted, and its catalog (tables, columns,
 * constraints, indexes, triggers, functions, applied migrations) matching what it was when fresh.
 * One a test changed, or shared with another instance or process, is dropped as before.
 */

const idle: string[] = [];
/** The catalog of each schema this worker made, read when its first app had migrated it. */
const fresh = new Map<string, string>();

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

/** A migrated, empty schema of this worker's, or undefined when there is none yet. */
export function takeSchema(): string | undefined {
  return idle.pop();
}

async function withClient<T>(schema: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: process.env.DATABASE_URL,
    options: `-c search_path=${schema}`,
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const catalogOf = async (c: pg.Client, schema: string) =>
  (await c.query<{ catalog: string }>(CATALOG, [schema])).rows[0]!.catalog;

/** Notes a schema's catalog right after its first app migrated it, to recognise it when returned. */
export async function noteFresh(schema: string): Promise<void> {
  fresh.set(schema, await withClient(schema, (c) => catalogOf(c, schema)));
}

/**
 * Empties a schema whose apps have all closed and keeps it for the next app, or drops it when its
 * catalog is no longer the migrations' (or it was never noted, or emptying it failed).
 */
export async function returnSchema(schema: string, shared: boolean): Promise<void> {
  const reusable =
    !shared &&
    fresh.has(schema) &&
    (await withClient(schema, async (c) => {
      if ((await catalogOf(c, schema)) !== fresh.get(schema)) return false;
      const probe = (await c.query<{ sql: string }>(PROBE, [schema])).rows[0]!.sql;
      const full = (await c.query<{ t: string }>(probe)).rows.map((r) => r.t);
      // Replica role: the append-only tables' triggers and the foreign keys' checks stand aside,
      // so the tables empty in any order.
      await c.query(
        `set session_replication_role = replica;
         ${full.map((t) => `delete from "${t}";`).join('\n')}
         reset session_replication_role;
         select setval(format('%I', sequencename), start_value, false)
           from pg_sequences where schemaname = '${schema}'`,
      );
      return true;
    }).catch(() => false));
  if (reusable) {
    idle.push(schema);
    return;
  }
  fresh.delete(schema);
  await withClient(schema, (c) => c.query(`drop schema if exists ${schema} cascade`));
}
