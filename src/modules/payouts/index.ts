/** Payouts to vendors and partners: destinations, balances, runs, exactly-once sending, maker-checker. */
export { payoutsModule, createPayoutsModule, type PayoutsModule } from './module.ts';
export { payoutSettings, type PayoutSettings } from './settings.ts';
export type { PayeeBalance, SavedDestination } from './payees.ts';
export { PAYOUTS_CHANNEL, RUNS_KEY } from './repository.ts';
export type {
  DestinationRow,
  PayoutRow,
  PayoutSchedule,
  PayoutStatus,
  LineRow,
} from './repository.ts';
export { PAYOUT_JOURNAL_KINDS } from './domain/journals.ts';
export {
  namesMatch,
  NETWORKS,
  parseDestination,
  type DestinationInput,
} from './domain/destinations.ts';
export type { DestinationNotices } from './destination-changes.ts';
export type { PayeeDirectory } from './directory.ts';
export type { DestinationChangeRow } from './changes-repository.ts';
export { PayoutStatement, type PayoutTransfer } from './statement.ts';
export type { Replacement } from './replacements.ts';
export type { Switched } from './destination-switch.ts';
export { runView } from './routes/admin-payouts.ts';
export type { CodVendorsOf, HeldSubjects } from './service.ts';
export type { OtherTransferHints } from './routes/transfer-webhook.ts';
