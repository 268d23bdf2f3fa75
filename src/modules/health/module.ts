import type { Db } from '../../platform/db/index.ts';
import type { GuardStore } from '../../platform/guard/types.ts';
import { defineModule } from '../../platform/module.ts';
import { registerProbes } from './probes.ts';

interface Needs {
  db: Db;
  guard: GuardStore;
  config: { redisUrl?: string | undefined };
}

/** `/healthz` and `/readyz`: the database, and Redis when configured. */
export const healthModule = defineModule({
  name: 'health',
  tables: [],
  needs: [],
  build: ({ db, guard, config }: Needs) => ({
    face: {},
    pages: (app) =>
      registerProbes(app, {
        database: () => db.ping(),
        ...(config.redisUrl ? { redis: () => guard.ping() } : {}),
      }),
  }),
});
