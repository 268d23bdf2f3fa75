import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { ensureSandboxQuickstart } from './modules/accounts/quickstart.ts';
import { startupFailure } from './startup-failure.ts';

/** Listens, and on SIGTERM/SIGINT lets in-flight requests finish before closing storage. */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
  if (config.sandboxQuickstart) {
    const file = await ensureSandboxQuickstart(app.platform.db, app.platform.accounts, config.dataDir, config.publicBaseUrl);
    if (file) app.log.warn({ file }, `sandbox quick start: a demo partner and staging key were created; their credentials are in ${file}`);
  }
  app.log.info({ services: [...config.services], database: config.database.kind, redis: Boolean(config.redisUrl) }, 'partner platform ready');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(startupFailure(err));
  process.exit(1);
});
