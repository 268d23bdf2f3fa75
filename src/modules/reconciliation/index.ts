/** Reconciliation: gateways' reports and the transfer provider's statements against the ledger, settlements to the bank (maker-checker), and couriers' cash, day by day. */
export { ReconciliationService, type ImportOutcome, type Reconciliation } from './service.ts';
export { checkedDay, isGateway, RIDER_CASH, SOURCES, TRANSFERS, type Source } from './sources.ts';
export type { GatewayReferences, TransferBooks } from './ports.ts';
export type { TransferRecord } from './domain/match-transfers.ts';
export type { StatementOutcome, TransferStatements } from './statements.ts';
export type { SettlementApprovals } from './settlements.ts';
export {
  SETTLEMENT_STATUSES,
  type SettlementRow,
  type SettlementStatus,
} from './settlements-repository.ts';
export type { VersionRow } from './versions-repository.ts';
export {
  GATEWAYS,
  MAX_REPORT_CHARS,
  MAX_REPORT_LINES,
  REPORT_FORMATS,
  type ReportGateway,
} from './domain/report.ts';
export { STATEMENT_COLUMNS, STATEMENT_STATUSES } from './domain/statement.ts';
export type { DifferenceRow, ReconciliationRow } from './repository.ts';
export { reconciliationAdminRoutes } from './routes/admin-reconciliation.ts';
export { reconciliationModule } from './module.ts';
