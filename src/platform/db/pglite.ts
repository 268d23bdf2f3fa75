import { PGlite, types } from '@electric-sql/pglite';
import type { Db, Queryable, Row } from './types.ts';
import { parseInt8 } from './types.ts';

const parsers = { [types.INT8]: parseInt8 };

function wrap(q: { query: PGlite['query']; exec: PGlite['exec'] }): Queryable {
  return {
    async query<T = Row>(sql: string, params?: readonly unknown[]) {
      const res = await q.query<T>(sql, params as unknown[] | undefined);
      return res.rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  };
}

/**
 * PGlite is a single session that serialises queries; transactions must go through its own
 * `transaction()` so that other requests' statements wait instead of interleaving.
 */
export interface PgliteDb extends Db {
  /** The whole data directory as a tarball (used to seed in-memory test databases). */
  dump(): Promise<Blob>;
}

export async function openPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<PgliteDb> {
  const pg = new PGlite({ dataDir, parsers, ...(loadDataDir ? { loadDataDir } : {}) });
  await pg.waitReady;
  const direct = wrap(pg);
  return {
    kind: 'pglite',
    query: direct.query,
    exec: direct.exec,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    listen: (channel, onNotify) => pg.listen(`${channel}_public`, onNotify),
    async ping() {
      await pg.query('select 1');
    },
    dump: async () => (await pg.dumpDataDir('none')) as Blob,
    async close() {
      if (pg.closed) return;
      if (dataDir) await pg.exec('CHECKPOINT');
      await pg.close();
    },
  };
}
