/**
 * The bare baseline server (bench/baseline/server.ts) as a child process beside the platform: on
 * PostgreSQL in a bench schema of its own (dropped afterwards), or on PGlite in memory for the
 * embedded comparison.
 */
import { randomBytes } from 'node:crypto';
import { dropSchema, POSTGRES_URL } from './backends.ts';
import { onCleanup } from './cleanup.ts';
import { newSchemaName } from './instances.ts';
import { launch, type ChildServer } from './server.ts';

export interface BaselineServer extends ChildServer {
  title: string;
  /** PostgreSQL only. */
  schema: string | undefined;
  /** The key its signed health floor (/signed-noop) accepts, made up for this run. */
  floorKey: { apiKey: string; signingSecret: string };
}

export async function startBaseline(
  db: 'postgres' | 'embedded',
  poolSize: number,
): Promise<BaselineServer> {
  let env: Record<string, string> = { BASELINE_DATABASE_URL: 'memory:' };
  let title = 'bare Fastify + PGlite in memory';
  let schema: string | undefined;
  if (db === 'postgres') {
    const name = newSchemaName();
    schema = name;
    env = {
      BASELINE_DATABASE_URL: POSTGRES_URL,
      BASELINE_SCHEMA: name,
      BASELINE_POOL_SIZE: String(poolSize),
      PGAPPNAME: name,
    };
    title = `bare Fastify + pg (pool of ${poolSize}), schema ${name}`;
    // Registered before the server starts: it creates the schema on boot.
    onCleanup(async () => {
      await dropSchema(name);
      console.log(`  dropped schema ${name}`);
    });
  }
  const floorKey = {
    apiKey: `pk_production_floor${randomBytes(12).toString('hex')}`,
    signingSecret: randomBytes(24).toString('base64url'),
  };
  console.log(`\n-- baseline: starting the ${title}`);
  const server = await launch(
    'bench/baseline/server.ts',
    { ...env, BASELINE_FLOOR_KEY: floorKey.apiKey, BASELINE_FLOOR_SECRET: floorKey.signingSecret },
    [],
    '/noop',
  );
  onCleanup(() => server.stop());
  console.log(`  baseline pid ${server.pid} on ${server.url}`);
  return { ...server, title, schema, floorKey };
}
