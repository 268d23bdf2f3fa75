export type Row = Record<string, unknown>;

export interface Queryable {
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction; on PostgreSQL, serialization failures are retried. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Cheap round trip used by readiness probes. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** int8 columns hold pesewas and counters; refuse to hand out a silently rounded number. */
export function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${value} is outside the safe integer range`);
  return n;
}
