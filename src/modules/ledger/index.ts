/**
 * The ledger: double-entry journals in integer pesewas, their posting, and partner wallet
 * balances. Other modules build journals and post them inside their own transactions.
 */
export * from './accounts.ts';
export {
  assertBalanced,
  positive,
  UnbalancedJournalError,
  type Journal,
  type LedgerEntry,
} from './journal.ts';
export {
  journalStatements,
  ledgerRepository as ledger,
  type DayEntry,
  type JournalStatements,
  type EntryRow,
  type StatementRow,
  type SubjectEntry,
  type WalletDay,
} from './repository.ts';
export { LedgerReads, type JournalFilter, type JournalLeg, type JournalRow } from './reads.ts';
export { ledgerModule } from './module.ts';
