import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import type { GuardStore } from '../../platform/guard/types.ts';

const PROBE_TIMEOUT_MS = 2000;

async function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<T>((_, reject) => {
        timer = setTimeout(() => reject(new Error('probe timed out')), PROBE_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Unauthenticated operator probes, outside the partner API: liveness and readiness. */
export function registerProbes(app: FastifyInstance, db: Db, guard: GuardStore): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => {
    try {
      await withTimeout(Promise.all([db.ping(), guard.ping()]));
    } catch {
      throw errors.serviceUnavailable('The database or the shared store is unreachable.');
    }
    return { status: 'ok' };
  });
}
