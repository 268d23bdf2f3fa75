/** Reconciliation: gateways' reports against the ledger, settlements to the bank, and couriers' cash, day by day. */
export { checkedDay, isGateway, ReconciliationService, RIDER_CASH, SOURCES, type GatewayReferences, type ImportOutcome, type Reconciliation, type Source } from './service.ts';
export { GATEWAYS, MAX_REPORT_CHARS, MAX_REPORT_LINES, REPORT_FORMATS, type ReportGateway } from './domain/report.ts';
export type { DifferenceRow, ReconciliationRow } from './repository.ts';
export { reconciliationAdminRoutes } from './routes/admin-reconciliation.ts';
