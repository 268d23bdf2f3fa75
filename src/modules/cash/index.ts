/** Couriers' cash on delivery: collections posted to each courier's ledger account, and handovers. */
export {
  CashService,
  type CashDelivery,
  type CourierCashDay,
  type DueOnDelivery,
  type HandoverListener,
} from './service.ts';
export { cashDue, type CashDue } from './domain/journals.ts';
export type { CourierCashRow, HandoverRow } from './repository.ts';
export { cashAdminRoutes } from './routes/admin-cash.ts';
export { cashModule } from './module.ts';
