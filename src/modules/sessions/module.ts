import type { Db } from '../../platform/db/index.ts';
import { defineModule } from '../../platform/module.ts';
import { SessionStore } from './service.ts';

/** Server-side sessions of members, operators and couriers. */
export const sessionsModule = defineModule({
  name: 'sessions',
  tables: ['web_sessions'],
  needs: [],
  build: ({ db, clock }: { db: Db; clock: () => number }) => ({
    face: { sessions: new SessionStore(db, clock) },
  }),
});
