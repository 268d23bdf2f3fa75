import pg from 'pg';
import type { Db, Queryable, Row } from './types.ts';
import { parseInt8 } from './types.ts';
import { isRetryableTransactionError } from './sqlstate.ts';

const MAX_TRANSACTION_ATTEMPTS = 5;

const typeParsers = {
  getTypeParser(oid: number, format?: string) {
    if (oid === 20) return parseInt8;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export interface PostgresOptions {
  url: string;
  poolSize: number;
  schema: string | undefined;
}

export async function openPostgres(opts: PostgresOptions): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.poolSize,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    // Bounded statements: a stuck query answers an error instead of holding a connection forever.
    statement_timeout: 15_000,
    types: typeParsers,
    ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the next checkout reconnects.
  pool.on('error', () => {});
  if (opts.schema) await pool.query(`create schema if not exists ${opts.schema}`);

  const query: Queryable['query'] = async <T = Row>(sql: string, params?: readonly unknown[]) =>
    (await pool.query(sql, params as unknown[] | undefined)).rows as T[];
  // Without parameters pg uses the simple query protocol, which takes a whole script.
  const exec = async (sql: string) => void (await pool.query(sql));

  const runNow = (effect: () => void) => effect();

  return {
    kind: 'postgres',
    query,
    exec,
    afterCommit: runNow,
    async transaction(fn) {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        // A retried attempt starts with none: only the attempt that commits has its effects run.
        const committed: Array<() => void> = [];
        try {
          await client.query('BEGIN');
          const result = await fn({
            query: async <T = Row>(sql: string, params?: readonly unknown[]) =>
              (await client.query(sql, params as unknown[] | undefined)).rows as T[],
            exec: async (sql: string) => void (await client.query(sql)),
            afterCommit: (effect) => committed.push(effect),
          });
          await client.query('COMMIT');
          client.release();
          committed.forEach(runNow);
          return result;
        } catch (err) {
          const broken = await client.query('ROLLBACK').then(
            () => false,
            () => true,
          );
          // A client whose connection broke is destroyed rather than returned to the pool.
          client.release(broken ? (err as Error) : undefined);
          if (attempt < MAX_TRANSACTION_ATTEMPTS && isRetryableTransactionError(err)) {
            await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
            continue;
          }
          throw err;
        }
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    poolStats: () => ({ max: opts.poolSize, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
