import { EventEmitter } from 'node:events';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { notifier } from './notify.ts';
import type { DriverDb, Queryable, Row } from './types.ts';
import { parseInt8 } from './types.ts';

const parsers = { [types.INT8]: parseInt8 };

function wrap(
  q: { query: PGlite['query']; exec: PGlite['exec'] },
  afterCommit: Queryable['afterCommit'],
  notify: Queryable['notify'],
): Queryable {
  return {
    async query<T = Row>(sql: string, params?: readonly unknown[]) {
      const res = await q.query<T>(sql, params as unknown[] | undefined);
      return res.rows;
    },
    async exec(sql: string) {
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

export async function openPglite(
  dataDir: string | undefined,
  loadDataDir?: Blob,
): Promise<PgliteDb> {
  // pg_trgm: the extensions the migrations create (068) must be loadable, as on PostgreSQL.
  const extensions = { pg_trgm };
  const pg = new PGlite({
    dataDir,
    parsers,
    extensions,
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  await pg.waitReady;
  // The data directory is this process's alone, so every listener is in it: wake-ups stay in memory.
  const bell = new EventEmitter().setMaxListeners(0);
  const notify = notifier(async (channel, keys) => void bell.emit(channel, keys), 0);
  const direct = wrap(pg, runNow, notify);
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
        const committed: Array<() => void> = [];
        const later = (effect: () => void) => committed.push(effect);
        const result = await pg.transaction((tx) =>
          fn(wrap(tx, later, (channel, key) => later(() => notify(channel, key)))),
        );
        committed.forEach(runNow);
        return result;
      }),
    async listen(channel, onNotify) {
      bell.on(channel, onNotify);
      return async () => void bell.off(channel, onNotify);
    },
    async ping() {
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
      if (pg.closed) return;
      if (dataDir) await pg.exec('CHECKPOINT');
      await pg.close();
    },
  };
}
