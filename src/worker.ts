import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { startupFailure } from './startup-failure.ts';

/**
 * Runs the background work (webhook dispatcher, sandbox courier, refunds) without serving HTTP,
 * so workers and API instances can be scaled apart: give API instances WEBHOOK_DISPATCHER=off.
 */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, WEBHOOK_DISPATCHER: 'on' });
  const app = await buildApp(config);
  await app.ready();
  app.log.info('partner platform worker running');
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err: unknown) => {
  console.error(startupFailure(err));
  process.exit(1);
});
