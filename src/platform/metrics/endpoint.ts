import { createServer } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Registry } from 'prom-client';
import type { Logger } from '../logger.ts';
import { collectNodeMetrics, processMetrics } from './registry.ts';

export interface MetricsExposure {
  /** Without METRICS_PORT, /metrics is served beside the operator API and behind its token. */
  checkAdminToken: ((request: FastifyRequest) => void) | undefined;
  /** A port of its own, unauthenticated: for scrapers on a private network, and for workers. */
  port: number | undefined;
  host: string;
}

/**
 * Serves the process's and this app's metrics in the Prometheus text format: on METRICS_PORT
 * when set, else at /metrics with the operator token; with neither, nowhere.
 */
export function exposeMetrics(
  app: FastifyInstance,
  appMetrics: Registry,
  opts: MetricsExposure,
): void {
  const { checkAdminToken, port, host } = opts;
  if (port === undefined && checkAdminToken === undefined) return;
  collectNodeMetrics();
  const scrape = () => Registry.merge([processMetrics, appMetrics]).metrics();
  const contentType = processMetrics.contentType;

  if (port === undefined) {
    app.get(
      '/metrics',
      { exposeHeadRoute: false, preValidation: async (request) => checkAdminToken!(request) },
      async (_request, reply) => reply.type(contentType).send(await scrape()),
    );
    return;
  }
  const server = metricsServer(appMetrics, port, host, app.log);
  // Listens with the app, so a port in use stops the start.
  app.addHook('onReady', () => server.listen());
  app.addHook('onClose', () => server.close());
}

/** A bare HTTP server for GET /metrics on a port of its own (the server's METRICS_PORT, and the worker's, which has no app). */
export function metricsServer(
  appMetrics: Registry,
  port: number,
  host: string,
  log: Pick<Logger, 'error'>,
): { listen(): Promise<void>; close(): Promise<void> } {
  collectNodeMetrics();
  const scrape = () => Registry.merge([processMetrics, appMetrics]).metrics();
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    scrape().then(
      (text) => res.writeHead(200, { 'content-type': processMetrics.contentType }).end(text),
      (err: unknown) => {
        log.error({ err }, 'metrics scrape failed');
        res.writeHead(500).end();
      },
    );
  });
  return {
    listen: () =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
