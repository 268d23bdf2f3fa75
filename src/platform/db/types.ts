export type Row = Record<string, unknown>;

/** Where the system of record lives: an embedded directory, memory, or a PostgreSQL server. */
export type DatabaseConfig =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'memory' }
  | { kind: 'postgres'; url: string; poolSize: number; schema: string | undefined };

export interface Queryable {
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of any number of statements, without parameters (migrations), exactly as written. */
  exec(sql: string): Promise<void>;
  /**
   * Runs `effect` once the surrounding transaction has committed, and never for an attempt that
   * rolled back or was retried; outside a transaction, at once. For effects outside the database
   * that must match what was written, such as counting it. `effect` must not throw.
   */
  afterCommit(effect: () => void): void;
  /**
   * Wakes every `listen(channel)` subscriber, in every process, once the surrounding transaction has
   * committed (outside one, at once). A hint, not a message: calls close together become one, sent
   * apart from the caller's transaction (a NOTIFY inside it would hold PostgreSQL's database-wide
   * notify lock through the commit's WAL flush and serialise every committing writer). `key` names
   * what changed (a courier's id) so that listeners may look at that alone; without it, anything.
   */
  notify(channel: string, key?: string): void;
}

/** Connections in use, for metrics; PGlite is one session that runs one statement at a time. */
export interface PoolStats {
  max: number;
  open: number;
  idle: number;
  /** Work waiting for a connection (PGlite: for the session). */
  waiting: number;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction; on PostgreSQL, serialization failures are retried. Inside a unit of work, a savepoint of it. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one transaction that every `query`, `exec` and `transaction` on this `db` called from
   * within it joins (each in a savepoint), so changes made by several services, each with its own
   * transaction, commit or roll back together. For low-volume callers: statements take turns.
   */
  unitOfWork<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` for `notify(channel)` calls (PostgreSQL: NOTIFY on `<channel>_<this database's schema>`, from
   * any process), and once after a lost listening connection is back, since notifications sent meanwhile are gone.
   * `changed` lists the keys the merged calls named, or is undefined when any of them named none
   * (and after a reconnection). Answers a stop.
   */
  listen(
    channel: string,
    onNotify: (changed: readonly string[] | undefined) => void,
  ): Promise<Unlisten>;
  /** Cheap round trip used by readiness probes. */
  ping(): Promise<void>;
  poolStats(): PoolStats;
  close(): Promise<void>;
}

/** What a `listen` answers: stops it. */
export type Unlisten = () => Promise<void>;

/** What a driver provides; `openDatabase` adds units of work on top. */
export type DriverDb = Omit<Db, 'unitOfWork'>;

/** int8 columns hold pesewas and counters; refuse to hand out a silently rounded number. */
export function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n))
    throw new Error(`int8 value ${value} is outside the safe integer range`);
  return n;
}

/**
 * Distinct statements each driver keeps prepared per session (a connection, or PGlite's one);
 * beyond that, statements are parsed each time. The cap bounds what dynamically built statements
 * could otherwise prepare.
 */
export const MAX_PREPARED = 256;

/**
 * A transaction's end, marked before COMMIT or ROLLBACK: past it, the transaction's own queryable
 * refuses, so a statement left running never reaches the session once it serves someone else.
 */
export function transactionEnd(): { refuseIfEnded(): void; end(): void } {
  let ended = false;
  return {
    refuseIfEnded() {
      if (ended) throw new Error('Transaction is closed');
    },
    end() {
      ended = true;
    },
  };
}
