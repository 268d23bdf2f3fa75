/**
 * One or more server processes on one store (suites webhooks, catalog, soak): the embedded
 * database (one process) or one PostgreSQL schema + Redis shared by every instance. Every server,
 * schema and Redis key set is registered for cleanup before it is created.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { dropRedisKeys, dropSchema, POSTGRES_URL, REDIS_URL } from './backends.ts';
import { onCleanup } from './cleanup.ts';
import type { ScenarioName } from './options.ts';
import { startServer, type BenchServer } from './server.ts';

export interface Fleet {
  scenario: ScenarioName;
  servers: BenchServer[];
  /** PostgreSQL only: the shared schema, also every server's application_name (PGAPPNAME). */
  schema: string | undefined;
  title: string;
  /** The environment every instance got (a further instance must share its SECRETS_KEY). */
  env: Record<string, string>;
}

export const newSchemaName = () => `bench_${randomBytes(6).toString('hex')}`;

/**
 * Starts `instances` servers (one at a time: the first migrates the schema). On PostgreSQL a fresh
 * schema unless `schema` is given (then the caller owns its cleanup).
 */
export async function startFleet(o: {
  scenario: ScenarioName;
  instances?: number;
  env?: Record<string, string>;
  schema?: string;
  label: string;
}): Promise<Fleet> {
  const instances = o.instances ?? 1;
  if (o.scenario === 'embedded' && instances > 1)
    throw new Error('the embedded database serves one process only');
  let env: Record<string, string> = { DATABASE_URL: 'memory:' };
  let title = 'PGlite in memory (DATABASE_URL=memory:)';
  let schema: string | undefined;
  if (o.scenario === 'postgres') {
    schema = o.schema ?? newSchemaName();
    const name = schema;
    if (!o.schema)
      onCleanup(async () => {
        await dropSchema(name);
        console.log(`  dropped schema ${name}`);
      });
    env = { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, REDIS_URL, PGAPPNAME: schema };
    title = `PostgreSQL (schema ${schema}) + Redis, ${instances} instance${instances > 1 ? 's' : ''}`;
  }
  console.log(
    `\n-- ${o.label}: starting ${instances} server${instances > 1 ? 's' : ''} (${title})`,
  );
  // Instances must share the key that seals signing and webhook secrets at rest.
  env.SECRETS_KEY = randomBytes(32).toString('base64');
  const fleet: Fleet = {
    scenario: o.scenario,
    servers: [],
    schema,
    title,
    env: { ...env, ...o.env },
  };
  for (let i = 0; i < instances; i++) await addInstance(fleet);
  return fleet;
}

/** One more server on the fleet's store (PostgreSQL only), with the same environment. */
export async function addInstance(fleet: Fleet): Promise<BenchServer> {
  const server = await startServer(fleet.env);
  onCleanup(() => server.stop());
  fleet.servers.push(server);
  console.log(`  server pid ${server.pid} on ${server.url}`);
  return server;
}

/** Removes a key's nonces and rate-limit windows from Redis at cleanup (PostgreSQL fleets). */
export function cleanKeyAfter(fleet: Fleet, keyId: string): void {
  if (fleet.scenario !== 'postgres') return;
  onCleanup(async () => {
    await dropRedisKeys(keyId);
  });
}

/** Resident set size of a process in MB, from /proc/<pid>/status (VmRSS); undefined when gone. */
export function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A connection whose search_path is the bench schema; for bulk loads and checks. */
export async function schemaClient(schema: string): Promise<pg.Client> {
  if (!/^bench_[a-z0-9]+$/.test(schema)) throw new Error(`unexpected schema ${schema}`);
  const client = new pg.Client({
    connectionString: POSTGRES_URL,
    options: `-c search_path=${schema}`,
  });
  client.on('error', () => {});
  await client.connect();
  onCleanup(() => client.end().catch(() => {}));
  return client;
}

/** CPU of the other processes on the machine (cores), given the machine's and our processes' CPU deltas. */
export function otherCores(
  machineMs: number | undefined,
  ownMs: number,
  wallMs: number,
): number | null {
  if (machineMs === undefined || wallMs <= 0) return null;
  return Math.max(0, (machineMs - ownMs) / wallMs);
}
