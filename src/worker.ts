import './platform/node-version.ts'; // first: an unsupported Node stops here, before anything else runs
import pino from 'pino';
import { APP } from './app.ts';
import { compose, type Composition } from './composition.ts';
import { loadConfig, type Config } from './config.ts';
import { Registry } from 'prom-client';
import { metricsServer } from './platform/metrics/endpoint.ts';
import { loadDotEnv, stopOnSignals } from './platform/lifecycle.ts';
import { logDestination, serializeError } from './platform/logger.ts';
import { startupFailure } from './startup-failure.ts';

/**
 * Runs the background work (webhook dispatcher, mail queue, sandbox courier, refunds, payouts) from
 * the same composition as the server, without HTTP: no Fastify, no routes, no port (but METRICS_PORT's),
 * so workers and API instances can be scaled apart: give API instances WEBHOOK_DISPATCHER=off.
 */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig({ ...process.env, WEBHOOK_DISPATCHER: 'on' });
  const log = pino(
    { level: config.logLevel, serializers: { err: serializeError } },
    logDestination(config.logFormat),
  );
  const composed = await compose(config, {}, log, APP);
  const stopMetrics = await serveWorkerMetrics(composed, config);
  composed.start();
  log.info('partner platform worker running');
  stopOnSignals(
    async () => {
      await stopMetrics();
      await composed.close();
    },
    { timeoutMs: config.shutdownTimeoutMs, log },
  );
}

/** METRICS_PORT, when set: the worker's jobs and pool on a port of its own (a worker serves nothing else). */
async function serveWorkerMetrics(
  composed: Composition,
  config: Config,
): Promise<() => Promise<void>> {
  if (config.metricsPort === undefined) return async () => {};
  const registry = new Registry();
  composed.registerGauges(registry);
  const server = metricsServer(registry, config.metricsPort, config.host, composed.ctx.log);
  await server.listen();
  return () => server.close();
}

main().catch((err: unknown) => {
  console.error(startupFailure(err));
  process.exit(1);
});
