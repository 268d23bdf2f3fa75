/** The safe-catalog service's public face: the module the app wires. */
export {
  catalogModule,
  createCatalogModule,
  SALES_JOB_INTERVAL_MS,
  type CatalogModule,
} from './module.ts';
export { CatalogService, type VendorInput } from './products/service.ts';
export { vendorView } from './products/views.ts';
export type { VendorRow } from './products/repository.ts';
export {
  PAYMENT_STATUSES as SALE_PAYMENT_STATUSES,
  STATES as SALE_STATES,
} from './sales/routes/sale-schema.ts';
export {
  PARTNER_SALES_PAGE,
  SALE_JOURNAL_TITLES,
  type PartnerSales,
  type SaleJournalBreakdown,
} from './sales/partner-sales.ts';
export {
  OperatorSales,
  RECEIPT_TITLES,
  type OperatorSale,
  type OperatorSaleFilter,
  type SaleReceipt,
} from './sales/operator-sales.ts';
export { saleRefundSettings, type SaleRefundSettings } from './refunds/settings.ts';
export {
  REFUND_STATUSES,
  type RefundListRow,
  type RefundRow,
  type RefundStatus,
} from './refunds/repository.ts';
export type { RefundsService } from './refunds/service.ts';
export { RefundStatement, type RefundTransfer } from './refunds/statement.ts';
