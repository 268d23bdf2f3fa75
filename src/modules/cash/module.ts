import type { Db } from '../../platform/db/index.ts';
import { defineModule } from '../../platform/module.ts';
import { cashAdminRoutes } from './routes/admin-cash.ts';
import { CashService, type DueOnDelivery } from './service.ts';

interface Needs {
  db: Db;
  clock: () => number;
  /** Present where couriers deliver: cash is collected in dispatch's delivered action. */
  dispatch: object | undefined;
  cashDue: DueOnDelivery;
}

/** Couriers' cash on delivery: collected at the door, handed over, reconciled by day. */
export const cashModule = defineModule({
  name: 'cash',
  tables: ['courier_cash', 'courier_cash_handovers'],
  needs: ['dispatch', 'cashDue'],
  enabled: ({ dispatch }: Needs) => dispatch !== undefined,
  build: ({ db, clock, cashDue }: Needs) => {
    const cash = new CashService(db, clock, cashDue);
    return { face: { cash }, adminRoutes: cashAdminRoutes(cash) };
  },
});
