import './platform/node-version.ts'; // first: an unsupported Node stops here, before anything else runs
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { ensureSandboxQuickstart } from './modules/accounts/quickstart.ts';
import { loadDotEnv, stopOnSignals } from './platform/lifecycle.ts';
import { startupFailure } from './startup-failure.ts';

/** Listens, and on SIGTERM/SIGINT lets in-flight requests finish before closing storage. */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const app = await buildApp(config);
  stopOnSignals(() => app.close(), { timeoutMs: config.shutdownTimeoutMs, log: app.log });
  await app.listen({ port: config.port, host: config.host });
  if (config.sandboxQuickstart) {
    const file = await ensureSandboxQuickstart(app.platform.db, app.platform.accounts, config.dataDir, config.publicBaseUrl);
    if (file) app.log.warn({ file }, `sandbox quick start: a demo partner and staging key were created; their credentials are in ${file}`);
  }
  app.log.info({ services: [...config.services], database: config.database.kind, redis: Boolean(config.redisUrl) }, 'partner platform ready');

}

main().catch((err: unknown) => {
  console.error(startupFailure(err));
  process.exit(1);
});
