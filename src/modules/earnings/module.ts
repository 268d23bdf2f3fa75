import type { Db } from '../../platform/db/index.ts';
import { defineModule } from '../../platform/module.ts';
import { VEHICLES } from '../couriers/index.ts';
import { payAdminRoutes } from './routes/admin-pay.ts';
import { EarningsService } from './service.ts';

interface Needs {
  db: Db;
  clock: () => number;
}

/** Couriers' pay: operators' versioned pay rules and policy, and each job's earning on the ledger. */
export const earningsModule = defineModule({
  name: 'earnings',
  tables: ['courier_pay_rules', 'courier_pay_policy', 'courier_earnings'],
  needs: [],
  build: ({ db, clock }: Needs) => {
    const earnings = new EarningsService(db, clock, VEHICLES);
    return { face: { earnings }, adminRoutes: payAdminRoutes(earnings) };
  },
});
