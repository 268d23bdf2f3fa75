import type { Db } from '../../platform/db/index.ts';
import { defineModule } from '../../platform/module.ts';
import type { CashService } from '../cash/index.ts';
import type { GatewayReferences, TransferBooks } from './ports.ts';
import { reconciliationAdminRoutes } from './routes/admin-reconciliation.ts';
import { ReconciliationService } from './service.ts';

interface Needs {
  db: Db;
  clock: () => number;
  cash: CashService | undefined;
  gatewayReferences: GatewayReferences;
  transferBooks: readonly TransferBooks[];
  transfers: { name: string };
}

/** Gateways' reports, transfer statements and couriers' cash reconciled with the ledger, day by day. */
export const reconciliationModule = defineModule({
  name: 'reconciliation',
  tables: [
    'gateway_report_lines',
    'reconciliations',
    'reconciliation_differences',
    'report_line_versions',
    'transfer_statement_lines',
    'settlement_approvals',
  ],
  needs: ['cash', 'gatewayReferences', 'transferBooks'],
  build: ({ db, clock, cash, gatewayReferences, transferBooks, transfers }: Needs) => {
    const reconciliation = new ReconciliationService(db, clock, gatewayReferences, cash, {
      provider: transfers.name,
      books: transferBooks,
    });
    return { face: { reconciliation }, adminRoutes: reconciliationAdminRoutes(reconciliation) };
  },
});
