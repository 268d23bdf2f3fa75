import type { FastifyInstance } from 'fastify';
import { errorMessage } from '../../platform/logger.ts';

const PROBE_TIMEOUT_MS = 2000;
const MAX_REASON_CHARS = 200;

/** A dependency's readiness check: resolves when it answers. */
export type ReadinessCheck = () => Promise<void>;

async function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<T>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)),
          PROBE_TIMEOUT_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Why a check failed, in one short line; credentials in a URL the driver quoted are masked. */
function reason(err: unknown): string {
  const text = errorMessage(err)
    .replace(/\s+/g, ' ')
    .replace(/\/\/[^/\s@]*@/g, '//***@');
  return `failed: ${text.slice(0, MAX_REASON_CHARS)}`;
}

/**
 * Unauthenticated operator probes, outside the partner API: liveness, and readiness with the
 * state of each dependency (so an operator sees which one is down without reading the logs).
 */
export function registerProbes(app: FastifyInstance, checks: Record<string, ReadinessCheck>): void {
  const names = Object.keys(checks);
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const results = await Promise.all(
      names.map((name) => withTimeout(checks[name]!()).then(() => 'ok', reason)),
    );
    const ready = results.every((r) => r === 'ok');
    return reply.code(ready ? 200 : 503).send({
      status: ready ? 'ok' : 'unavailable',
      checks: Object.fromEntries(names.map((n, i) => [n, results[i]])),
    });
  });
}
