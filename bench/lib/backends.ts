/** PostgreSQL and Redis for the shared-store scenario: probing, and cleaning up after the run. */
import { Redis } from 'ioredis';
import pg from 'pg';
import type { ScenarioName } from './options.ts';

export const POSTGRES_URL =
  process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function redisClient(): Redis {
  return new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
}

export async function probePostgres(): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await withTimeout(client.connect(), 3000, 'PostgreSQL connect');
    await withTimeout(client.query('select 1'), 2000, 'PostgreSQL select 1');
  } finally {
    await client.end().catch(() => {});
  }
}

/** The asked-for scenarios whose database answers; PostgreSQL is skipped with a note when it does not. */
export async function reachableScenarios(wanted: readonly ScenarioName[]): Promise<ScenarioName[]> {
  const reachable: ScenarioName[] = [];
  for (const name of wanted) {
    if (name === 'postgres') {
      const problem = await probePostgres().then(
        () => null,
        (err: Error) => err.message,
      );
      if (problem) {
        console.log(`  postgres: skipped (${problem})`);
        continue;
      }
    }
    reachable.push(name);
  }
  return reachable;
}

export async function probeRedis(): Promise<void> {
  const redis = redisClient();
  let cause: Error | undefined;
  redis.on('error', (err: Error) => (cause ??= err));
  try {
    await withTimeout(redis.connect(), 3000, 'Redis connect');
    await withTimeout(redis.ping(), 2000, 'Redis PING');
  } catch (err) {
    // ioredis reports "Connection is closed"; the socket error says why.
    throw cause ?? err;
  } finally {
    redis.disconnect();
  }
}

/** Null when both answer, otherwise why not. */
export async function probeBackends(): Promise<string | null> {
  const [pgResult, redisResult] = await Promise.allSettled([probePostgres(), probeRedis()]);
  const problems: string[] = [];
  if (pgResult.status === 'rejected')
    problems.push(
      `PostgreSQL at ${POSTGRES_URL} did not answer (${(pgResult.reason as Error).message})`,
    );
  if (redisResult.status === 'rejected')
    problems.push(
      `Redis at ${REDIS_URL} did not answer (${(redisResult.reason as Error).message})`,
    );
  return problems.length > 0 ? problems.join('; ') : null;
}

/** Drops the bench's own schema (the server creates it on start). */
export async function dropSchema(schema: string): Promise<void> {
  if (!/^bench_[a-z0-9]+$/.test(schema)) throw new Error(`refusing to drop schema ${schema}`);
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Leaves PostgreSQL with no background work owed to the last run: the bench schemas' tables
 * vacuumed and analysed (what autovacuum would otherwise do in a later run, after a burst of
 * orders.create), then a checkpoint (the run's dirty pages written now, not during the next run).
 */
export async function settlePostgres(schemas: readonly string[]): Promise<void> {
  for (const schema of schemas)
    if (!/^bench_[a-z0-9]+$/.test(schema)) throw new Error(`not a bench schema: ${schema}`);
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string }>(
      "select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = any($1)",
      [schemas],
    );
    if (rows.length) await client.query(`vacuum (analyze) ${rows.map((r) => r.name).join(', ')}`);
    await client.query('checkpoint');
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Removes the bench key's nonces and rate-limit windows from Redis (they would otherwise linger for
 * the nonce TTL, 10 minutes). Every key the guard writes for one API key starts with `pp:{<keyId>}:`.
 */
export async function dropRedisKeys(keyId: string): Promise<number> {
  if (!/^[A-Za-z0-9_-]+$/.test(keyId)) throw new Error(`unexpected key id ${keyId}`);
  const redis = redisClient();
  redis.on('error', () => {});
  let removed = 0;
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `pp:{${keyId}}:*`, 'COUNT', 5000);
      cursor = next;
      if (keys.length > 0) removed += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return removed;
}
