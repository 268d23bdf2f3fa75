import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { defineModule } from '../../platform/module.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { AuditLog } from '../audit/index.ts';
import type { ActivationNotifier } from './notifier.ts';
import { activationRoutes } from './routes/activation.ts';
import { ActivationService } from './service.ts';

interface Needs {
  db: Db;
  clock: () => number;
  log: Logger;
  accounts: AccountsService;
  audit: AuditLog;
  activationNotifier: ActivationNotifier;
}

/** Production activation requests: the dashboard's form and the operators' queue. */
export const activationModule = defineModule({
  name: 'activation',
  tables: ['activation_requests'],
  needs: ['accounts', 'audit', 'activationNotifier'],
  build: ({ db, clock, log, accounts, audit, activationNotifier: notifier }: Needs) => {
    const activation = new ActivationService({ db, accounts, audit, clock, log, notifier });
    return { face: { activation }, adminRoutes: activationRoutes(activation) };
  },
});
