import type { AdminRoute } from '../../platform/http/admin.ts';
import type { Operation } from '../../platform/http/operation.ts';
import { Periodic } from '../../platform/periodic.ts';
import { LocationsService } from '../delivery/locations/service.ts';
import type { DeliveryModule, ModuleDeps } from '../delivery/module.ts';
import { catalogAdminRoutes } from './products/routes/admin-catalog.ts';
import { catalogGet, catalogList } from './products/routes/catalog-read.ts';
import { CatalogService } from './products/service.ts';
import { catalogHealth } from './routes/health.ts';
import { Dispatcher } from './sales/dispatch.ts';
import { SalesJobs } from './sales/jobs.ts';
import { DeliveryQuoter } from './sales/quote.ts';
import { salesAdminRoutes } from './sales/routes/admin-sales.ts';
import { ordersCreate, ordersGet, ordersVerify } from './sales/routes/orders.ts';
import { SalesService } from './sales/service.ts';

/** How often the sales job runs (expiries, owed delivery orders, deliveries ended elsewhere). */
export const SALES_JOB_INTERVAL_MS = 5_000;

export interface CatalogModule {
  catalog: CatalogService;
  sales: SalesService;
  jobs: SalesJobs;
  workers: Periodic[];
  operations: Operation[];
  adminRoutes: AdminRoute[];
  /** For the shared gateway callback route: settles the references that are sales, ignores others. */
  handlePaymentCallback(clientReference: string): Promise<void>;
}

/**
 * The safe-catalog service. Orders need the delivery service: with it in this instance, sales
 * create their delivery orders and follow them through the move listener (in the move's own
 * transaction). Without it (SERVICES=safe-catalog), the catalog, orders.get and orders.verify
 * still work (a delivery's status is read from the shared database and the sales job follows
 * deliveries that ended on other instances), and orders.create answers 503 SERVICE_UNAVAILABLE
 * before reserving anything.
 */
export function createCatalogModule(deps: ModuleDeps & { delivery: DeliveryModule | undefined }): CatalogModule {
  const { config, db, clock, log, accounts, gateways, delivery } = deps;
  const catalog = new CatalogService(db, clock);
  const locations = delivery?.locations ?? new LocationsService(db, config.delivery.areaRadiusKm, clock);
  const quoter = new DeliveryQuoter(locations, config.delivery.pricing);
  const dispatcher = new Dispatcher({ db, clock, log, delivery: delivery?.orders, quoter });
  const sales = new SalesService({
    db,
    clock,
    log,
    gateways,
    publicBaseUrl: config.publicBaseUrl,
    appReturnUrl: async (appId) => (await accounts.getApp(appId))?.return_url ?? null,
    quoter,
    dispatcher,
    checkoutExpiryMs: config.payments.checkoutExpiryMinutes * 60_000,
  });
  delivery?.orders.onMove((tx, order) => sales.onDeliveryMove(tx, order));
  const jobs = new SalesJobs({ db, clock, log, sales, dispatcher });
  return {
    catalog,
    sales,
    jobs,
    workers: [new Periodic('safe-catalog-sales', SALES_JOB_INTERVAL_MS, () => jobs.tick(), log)],
    operations: [catalogHealth(db), catalogList(catalog), catalogGet(catalog), ordersCreate(sales), ordersVerify(sales), ordersGet(sales)] as Operation[],
    adminRoutes: [...catalogAdminRoutes(catalog), ...salesAdminRoutes(sales)] as AdminRoute[],
    handlePaymentCallback: (ref) => sales.handleCallback(ref),
  };
}
