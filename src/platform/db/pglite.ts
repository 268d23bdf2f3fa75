import { EventEmitter } from 'node:events';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { notifier } from './notify.ts';
import { preparedStatements, type RunPrepared } from './pglite-statements.ts';
import type { DriverDb, Queryable, Row } from './types.ts';
import { parseInt8 } from './types.ts';

const parsers = { [types.INT8]: parseInt8 };

function wrap(
  q: { query: PGlite['query']; exec: PGlite['exec'] },
  prepared: RunPrepared,
  afterCommit: Queryable['afterCommit'],
  notify: Queryable['notify'],
  open: () => void,
): Queryable {
  return {
    async query<T = Row>(sql: string, params?: readonly unknown[]) {
      open();
      if (params && params.length > 0) {
        const rows = await prepared<T>(sql, params);
        if (rows) return rows;
      }
      const res = await q.query<T>(sql, params as unknown[] | undefined);
      return res.rows;
    },
    async exec(sql: string) {
      open();
      await q.exec(sql);
    },
    afterCommit,
    notify,
  };
}

const runNow = (effect: () => void) => effect();

/**
 * PGlite is a single session that serialises queries; transactions must go through its own
 * `transaction()` so that other requests' statements wait instead of interleaving.
 */
export interface PgliteDb extends DriverDb {
  /** The whole data directory as a tarball (used to seed in-memory test databases). */
  dump(): Promise<Blob>;
}

/**
 * A started engine lent to one database at a time: closing that database gives it back through
 * `release` instead of stopping it (tests hand one app's engine, emptied, to the next: starting one
 * from a dump costs about 250 ms of CPU).
 */
export interface PgliteEngine {
  pglite: PGlite;
  release(): Promise<void>;
}

/** Starts PGlite on a data directory, in memory, or in memory from a dump of one. */
export async function startPglite(
  dataDir: string | undefined,
  loadDataDir?: Blob,
): Promise<PGlite> {
  // pg_trgm: the extensions the migrations create (068) must be loadable, as on PostgreSQL.
  const extensions = { pg_trgm };
  const pg = new PGlite({
    dataDir,
    parsers,
    extensions,
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  await pg.waitReady;
  return pg;
}

export async function openPglite(
  dataDir: string | undefined,
  loadDataDir?: Blob,
  engine?: PgliteEngine,
): Promise<PgliteDb> {
  const pg = engine?.pglite ?? (await startPglite(dataDir, loadDataDir));
  // Once closed, nothing of this database's reaches the engine (a lent one serves another already).
  let closed = false;
  const open = () => {
    if (closed) throw new Error('the database is closed');
  };
  // The data directory is this process's alone, so every listener is in it: wake-ups stay in memory.
  const bell = new EventEmitter().setMaxListeners(0);
  const notify = notifier(async (channel, keys) => void bell.emit(channel, keys), 0);
  const statements = preparedStatements(pg);
  const direct = wrap(pg, statements.alone, runNow, notify, open);
  // Statements and transactions started and not finished: one runs, the others wait for the session.
  let active = 0;
  const counted = <T>(work: () => Promise<T>): Promise<T> => {
    active++;
    return work().finally(() => active--);
  };
  return {
    kind: 'pglite',
    query: <T = Row>(sql: string, params?: readonly unknown[]) =>
      counted(() => direct.query<T>(sql, params)),
    exec: (sql) => counted(() => direct.exec(sql)),
    afterCommit: runNow,
    notify,
    transaction: (fn) =>
      counted(async () => {
        open();
        const committed: Array<() => void> = [];
        const later = (effect: () => void) => committed.push(effect);
        const prepared = statements.inTransaction();
        // Ended before PGlite sends COMMIT or ROLLBACK, as its own transaction object is.
        const result = await pg.transaction((tx) =>
          fn(
            wrap(
              tx,
              prepared.run,
              later,
              (channel, key) => later(() => notify(channel, key)),
              open,
            ),
          ).finally(prepared.end),
        );
        committed.forEach(runNow);
        return result;
      }),
    async listen(channel, onNotify) {
      bell.on(channel, onNotify);
      return async () => void bell.off(channel, onNotify);
    },
    async ping() {
      open();
      await pg.query('select 1');
    },
    poolStats: () => ({
      max: 1,
      open: 1,
      idle: active === 0 ? 1 : 0,
      waiting: Math.max(0, active - 1),
    }),
    dump: async () => (await pg.dumpDataDir('none')) as Blob,
    async close() {
      if (closed) return;
      closed = true;
      bell.removeAllListeners();
      if (engine) return engine.release();
      if (pg.closed) return;
      if (dataDir) await pg.exec('CHECKPOINT');
      await pg.close();
    },
  };
}
