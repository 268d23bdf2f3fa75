import './platform/node-version.ts'; // first: an unsupported Node stops here, before anything else runs
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { loadDotEnv, stopOnSignals } from './platform/lifecycle.ts';
import { startupFailure } from './startup-failure.ts';

/**
 * Runs the background work (webhook dispatcher, mail queue, sandbox courier, refunds) without serving HTTP,
 * so workers and API instances can be scaled apart: give API instances WEBHOOK_DISPATCHER=off.
 */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig({ ...process.env, WEBHOOK_DISPATCHER: 'on' });
  const app = await buildApp(config);
  await app.ready();
  app.log.info('partner platform worker running');
  stopOnSignals(() => app.close(), { timeoutMs: config.shutdownTimeoutMs, log: app.log });
}

main().catch((err: unknown) => {
  console.error(startupFailure(err));
  process.exit(1);
});
