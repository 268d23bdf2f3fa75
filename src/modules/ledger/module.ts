import type { Db } from '../../platform/db/index.ts';
import { defineModule } from '../../platform/module.ts';
import { LedgerReads } from './reads.ts';

/** The double-entry ledger: journals, entries and cached wallet balances (posted through `ledger.postJournal`). */
export const ledgerModule = defineModule({
  name: 'ledger',
  tables: ['ledger_journals', 'ledger_entries', 'wallets'],
  needs: [],
  build: ({ db }: { db: Db }) => ({ face: { journals: new LedgerReads(db) } }),
});
