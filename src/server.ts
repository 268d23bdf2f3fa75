import './platform/node-version.ts'; // first: an unsupported Node stops here, before anything else runs
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { startBanner, startLinks } from './banner.ts';
import { firstStart } from './playground/first-start.ts';
import { loadDotEnv, stopOnSignals } from './platform/lifecycle.ts';
import { humanLogs } from './platform/logger.ts';
import { startupFailure } from './startup-failure.ts';

/** Listens, and on SIGTERM/SIGINT lets in-flight requests finish before closing storage. */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const app = await buildApp(config);
  stopOnSignals(() => app.close(), { timeoutMs: config.shutdownTimeoutMs, log: app.log });
  const credentials = await firstStart(app);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      services: [...config.services],
      database: config.database.kind,
      redis: Boolean(config.redisUrl),
      ...startLinks(config),
    },
    'partner platform ready',
  );
  if (humanLogs(config.logFormat)) process.stdout.write(startBanner(config, credentials));
}

main().catch((err: unknown) => {
  console.error(startupFailure(err));
  process.exit(1);
});
