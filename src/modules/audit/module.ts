import type { Db } from '../../platform/db/index.ts';
import { defineModule } from '../../platform/module.ts';
import { auditRoutes } from './routes/audit.ts';
import { AuditLog } from './service.ts';

/** The append-only record of who changed what. */
export const auditModule = defineModule({
  name: 'audit',
  tables: ['audit_log'],
  needs: [],
  build: ({ db, clock }: { db: Db; clock: () => number }) => {
    const audit = new AuditLog(db, clock);
    return { face: { audit }, adminRoutes: auditRoutes(audit) };
  },
});
