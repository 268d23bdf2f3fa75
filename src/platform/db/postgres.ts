import pg from 'pg';
import { withArrayLiterals } from './array-literal.ts';
import type { DriverDb, Queryable, Row } from './types.ts';
import { MAX_PREPARED, parseInt8, transactionEnd } from './types.ts';
import { type Changed, decodeChanged, encodeChanged, notifier } from './notify.ts';
import { isRetryableTransactionError } from './sqlstate.ts';

const MAX_TRANSACTION_ATTEMPTS = 5;
/** Wake-ups from one process are sent at most this often per channel; listeners' rounds are slower anyway. */
const NOTIFY_GAP_MS = 10;

/**
 * Every parameterised statement becomes a named prepared statement, so PostgreSQL parses and plans
 * it once per connection instead of on every call. The name follows the text, up to the cap.
 */
function statementNamer() {
  const names = new Map<string, string>();
  return (text: string, params: readonly unknown[] | undefined): pg.QueryConfig => {
    if (!params || params.length === 0) return { text };
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED)
      names.set(text, (name = `pp${names.size}`));
    return { name, text, values: withArrayLiterals(params) };
  };
}

/** An error the server answered that leaves the session alive (FATAL and PANIC end it). */
const answeredByServer = (err: unknown) =>
  err instanceof pg.DatabaseError && err.severity !== 'FATAL' && err.severity !== 'PANIC';

/**
 * The error that broke each connection, if any, for `release`: a socket that breaks while a
 * connection is checked out makes pg emit `error`, which without a listener would end the process
 * (pg-pool listens only while it is idle). One listener per connection, attached when the pool
 * opens it, instead of one added and removed around every statement.
 */
const brokenBy = new WeakMap<pg.ClientBase, Error>();
const watch = (client: pg.ClientBase) => client.on('error', (err) => brokenBy.set(client, err));

/**
 * One statement on a pooled connection. pg-pool's own `pool.query` closes the connection on any
 * error, so every refusal the database answers (a duplicate reference, a refused wallet debit)
 * would cost a new connection, its start-up and its statements prepared again: tens of
 * milliseconds, and a cheap way to load the server. An error the server answered leaves the
 * connection usable (a single statement's transaction has ended with it); anything else (a broken
 * socket, a timeout) closes it, and the pool drops a connection that has ended either way.
 */
async function onPooledClient(pool: pg.Pool, config: pg.QueryConfig): Promise<pg.QueryResult> {
  const client = await pool.connect();
  let failed: Error | undefined;
  try {
    return await client.query(config);
  } catch (err) {
    if (!answeredByServer(err)) failed = err as Error;
    throw err;
  } finally {
    client.release(brokenBy.get(client) ?? failed);
  }
}

/** A transaction's statements on its connection, refused once `end` marks it over. */
function inTransaction(
  client: pg.PoolClient,
  statement: ReturnType<typeof statementNamer>,
  committed: Array<() => void>,
  notify: Queryable['notify'],
): { tx: Queryable; end: () => void } {
  const { refuseIfEnded, end } = transactionEnd();
  const during = () => {
    refuseIfEnded();
    return client;
  };
  return {
    tx: {
      query: async <T = Row>(sql: string, params?: readonly unknown[]) =>
        (await during().query(statement(sql, params))).rows as T[],
      exec: async (sql: string) => void (await during().query(sql)),
      afterCommit: (effect) => committed.push(effect),
      notify: (channel, key) => committed.push(() => notify(channel, key)),
    },
    end,
  };
}

/** A short random pause before another attempt, so two victims of one conflict do not meet again. */
const backOff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));

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

export async function openPostgres(opts: PostgresOptions): Promise<DriverDb> {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.poolSize,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    // Bounded statements: a stuck query answers an error instead of holding a connection forever.
    statement_timeout: 15_000,
    types: typeParsers,
    // JIT off: the payout run's aggregates crossed its cost threshold and spent more compiling than
    // running (a repeated run grew slower each time); no statement here is long enough to gain from it.
    options: `-c jit=off${opts.schema ? ` -c search_path=${opts.schema}` : ''}`,
  });
  // An idle client losing its connection must not crash the process; the next checkout reconnects.
  pool.on('error', () => {});
  pool.on('connect', watch);
  if (opts.schema) await pool.query(`create schema if not exists ${opts.schema}`);

  const statement = statementNamer();
  // A statement on its own is its own transaction: chosen as a deadlock's victim (or failed to
  // serialize), it changed nothing and is run again, as the transaction helper runs its attempts.
  const query: Queryable['query'] = async <T = Row>(sql: string, params?: readonly unknown[]) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await onPooledClient(pool, statement(sql, params))).rows as T[];
      } catch (err) {
        if (attempt >= MAX_TRANSACTION_ATTEMPTS || !isRetryableTransactionError(err)) throw err;
        await backOff(attempt);
      }
    }
  };
  // Without parameters pg uses the simple query protocol, which takes a whole script.
  const exec = async (sql: string) => void (await pool.query(sql));

  const runNow = (effect: () => void) => effect();
  const channelOf = (channel: string) => `${channel}_${opts.schema ?? 'public'}`;
  const notify = notifier(
    async (channel, keys) =>
      void (await query('select pg_notify($1, $2)', [channelOf(channel), encodeChanged(keys)])),
    NOTIFY_GAP_MS,
  );

  return {
    kind: 'postgres',
    query,
    exec,
    afterCommit: runNow,
    notify,
    async transaction(fn) {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        // A retried attempt starts with none: only the attempt that commits has its effects run.
        const committed: Array<() => void> = [];
        const work = inTransaction(client, statement, committed, notify);
        try {
          await client.query('BEGIN');
          const result = await fn(work.tx).finally(work.end);
          await client.query('COMMIT');
          client.release(brokenBy.get(client));
          committed.forEach(runNow);
          return result;
        } catch (err) {
          const broken = await client.query('ROLLBACK').then(
            () => false,
            () => true,
          );
          // A client whose connection broke is destroyed rather than returned to the pool.
          client.release(broken ? (brokenBy.get(client) ?? (err as Error)) : undefined);
          if (attempt < MAX_TRANSACTION_ATTEMPTS && isRetryableTransactionError(err)) {
            await backOff(attempt);
            continue;
          }
          throw err;
        }
      }
    },
    listen: (channel, onNotify) => listenOn(opts.url, channelOf(channel), onNotify),
    async ping() {
      await pool.query('select 1');
    },
    poolStats: () => ({
      max: opts.poolSize,
      open: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    close: () => pool.end(),
  };
}

const RELISTEN_DELAY_MS = 1000;

/** A dedicated connection (LISTEN holds its session) that reconnects until stopped. */
async function listenOn(
  url: string,
  channel: string,
  onNotify: (changed: Changed) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => n.channel === channel && onNotify(decodeChanged(n.payload)));
    c.on('error', () => {
      if (client !== c || stopped) return;
      client = undefined;
      void c.end().catch(() => {});
      retry = setTimeout(
        () =>
          void connect().then(
            () => onNotify(undefined),
            () => undefined,
          ),
        RELISTEN_DELAY_MS,
      );
      retry.unref();
    });
    await c.connect();
    await c.query(`listen ${pg.escapeIdentifier(channel)}`);
    client = c;
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
