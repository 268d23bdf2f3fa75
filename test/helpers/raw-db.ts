import { randomBytes } from 'node:crypto';
import { openPglite } from '../../src/platform/db/pglite.ts';
import { openPostgres } from '../../src/platform/db/postgres.ts';
import type { DriverDb } from '../../src/platform/db/types.ts';
import { openDatabase, type Db } from '../../src/platform/db/index.ts';

/** Runs `check` on an embedded database of its own, unmigrated, and closes it after. */
export async function onRawPglite(check: (db: DriverDb) => Promise<void>): Promise<void> {
  const db = await openPglite(undefined);
  try {
    await check(db);
  } finally {
    await db.close();
  }
}

/** Runs `check` on a PostgreSQL schema of its own, unmigrated, and drops it after. */
export async function onRawSchema(check: (db: DriverDb) => Promise<void>): Promise<void> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = await openPostgres({ url: process.env.DATABASE_URL!, poolSize: 2, schema });
  try {
    await check(db);
  } finally {
    await db.query(`drop schema ${schema} cascade`);
    await db.close();
  }
}

/**
 * A test file's own database, unmigrated, through `openDatabase` (units of work, translated
 * errors): a PostgreSQL schema of its own when DATABASE_URL names one, else embedded in memory.
 * `close` drops the schema.
 */
export async function openScratchDb(poolSize: number): Promise<Db> {
  if (!process.env.DATABASE_URL?.startsWith('postgres'))
    return openDatabase({ kind: 'memory' }, { migrate: false });
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const url = process.env.DATABASE_URL!;
  const db = await openDatabase({ kind: 'postgres', url, poolSize, schema }, { migrate: false });
  return {
    ...db,
    async close() {
      await db.exec(`drop schema ${schema} cascade`);
      await db.close();
    },
  };
}
