import { dirname } from 'node:path';
import { lockDataDir } from './lock.ts';
import { migrate } from './migrate.ts';
import { ownerOnly } from './owner-only.ts';
import { openPglite, type PgliteEngine } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import { translateDbError } from './sqlstate.ts';
import { inSpan, SpanKind, type SpanOptions } from '../tracing.ts';
import type { DatabaseConfig, Db, DriverDb } from './types.ts';
import { withUnitsOfWork } from './unit-of-work.ts';

export type { DatabaseConfig, Db, PoolStats, Queryable, Row } from './types.ts';
export { WITHOUT_FLUSH_WAIT } from './flush.ts';
export { migrate, migrationStatus, type MigrationState } from './migrate.ts';
export type { PgliteEngine } from './pglite.ts';

export interface OpenDbOptions {
  /** A PGlite data directory dump to start an in-memory database from (tests use a migrated template). */
  template?: Blob;
  /** An embedded engine to open the in-memory database on, instead of starting one (tests lend one). */
  engine?: PgliteEngine;
  /** Apply the pending migrations (the default); off to read the migration status without changing anything. */
  migrate?: boolean;
}

/** Opens the configured database, takes the embedded directory's lock, and migrates it (unless told not to). */
export async function openDatabase(config: DatabaseConfig, opts: OpenDbOptions = {}): Promise<Db> {
  let db: DriverDb;
  if (config.kind === 'postgres') {
    db = await openPostgres(config);
  } else if (config.kind === 'memory') {
    db = await openPglite(undefined, opts.template, opts.engine);
  } else {
    // The lock sits beside the PGlite directory, which belongs to PostgreSQL alone.
    const root = dirname(config.dataDir);
    ownerOnly(root);
    const release = lockDataDir(root);
    try {
      const inner = await openPglite(config.dataDir);
      ownerOnly(root);
      db = {
        ...inner,
        close: () =>
          inner.close().finally(() => {
            ownerOnly(root);
            release();
          }),
      };
    } catch (err) {
      release();
      throw err;
    }
  }
  try {
    if (opts.migrate !== false) await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return withUnitsOfWork(translating(db));
}

const rethrow = (err: unknown): never => {
  throw translateDbError(err);
};

// Transactions are traced inside a request or a delivery; background jobs' would each be a lone trace.
const TRANSACTION_SPAN: SpanOptions = {
  kind: SpanKind.CLIENT,
  onlyInTrace: true,
  attributes: { 'db.system.name': 'postgresql' },
};

/**
 * Database failures leave every query and transaction as application errors, so a service raises
 * the same error whether a route, a job or another module called it. Inside a transaction the raw
 * error still reaches the driver first, which retries serialization failures on it.
 */
function translating(db: DriverDb): DriverDb {
  return {
    ...db,
    query: <T>(sql: string, params?: readonly unknown[]) => db.query<T>(sql, params).catch(rethrow),
    exec: (sql) => db.exec(sql).catch(rethrow),
    transaction: (fn) =>
      inSpan('db.transaction', TRANSACTION_SPAN, () => db.transaction(fn)).catch(rethrow),
  };
}
