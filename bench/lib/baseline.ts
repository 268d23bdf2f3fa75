/**
 * The bare baseline server (bench/baseline/server.ts) as a child process beside the platform: on
 * PostgreSQL in a bench schema of its own (dropped afterwards), or on PGlite in memory for the
 * embedded comparison.
 */
import { dropSchema, POSTGRES_URL } from './backends.ts';
import { onCleanup } from './cleanup.ts';
import { newSchemaName } from './instances.ts';
import { launch, type ChildServer } from './server.ts';

export interface BaselineServer extends ChildServer {
  title: string;
  /** PostgreSQL only. */
  schema: string | undefined;
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
  console.log(`\n-- baseline: starting the ${title}`);
  const server = await launch('bench/baseline/server.ts', env, [], '/noop');
  onCleanup(() => server.stop());
  console.log(`  baseline pid ${server.pid} on ${server.url}`);
  return { ...server, title, schema };
}
