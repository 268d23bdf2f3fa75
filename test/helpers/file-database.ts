import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db/index.ts';
import { onPostgres } from './harness.ts';

/** Drops a test's PostgreSQL schema, from a connection of its own (the test's pool may be closed). */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
}

/**
 * A migrated database for one test file, no app around it: a schema of its own on the PostgreSQL
 * pass, an embedded one in memory otherwise, opened before the file's tests and gone after them.
 * Answers a getter (the database exists once `beforeAll` ran); `seed` fills it first.
 */
export function fileDatabase(seed?: (db: Db) => Promise<void>, poolSize = 2): () => Db {
  const schema = onPostgres ? `t_${randomBytes(6).toString('hex')}` : undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    db = await openDatabase(
      schema
        ? { kind: 'postgres', url: process.env.DATABASE_URL!, poolSize, schema }
        : { kind: 'memory' },
    );
    await seed?.(db);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    if (schema) await dropSchema(schema);
  });
  return () => db!;
}
