import type { Db } from '../../platform/db/index.ts';
import type { AdminRoute } from '../../platform/http/admin.ts';
import type { Operation } from '../../platform/http/operation.ts';
import type { Logger } from '../../platform/logger.ts';
import { WorkerLoop } from '../../platform/worker-loop.ts';
import type { PaymentGateways } from '../../integrations/payments/index.ts';
import type { TransferProvider } from '../../integrations/transfers/types.ts';
import type { AccountsService } from '../accounts/index.ts';
import { LocationsService, type DeliveryModule, type DeliverySettings } from '../delivery/index.ts';
import { catalogAdminRoutes } from './products/routes/admin-catalog.ts';
import { catalogGet } from './products/routes/catalog-get.ts';
import { catalogList } from './products/routes/catalog-list.ts';
import { CatalogService } from './products/service.ts';
import { RefundProviders } from './refunds/providers.ts';
import { refundsAdminRoutes } from './refunds/routes/admin-refunds.ts';
import { RefundReversals } from './refunds/reversals.ts';
import { RefundSender } from './refunds/sender.ts';
import { RefundsService } from './refunds/service.ts';
import type { SaleRefundSettings } from './refunds/settings.ts';
import { catalogHealth } from './routes/health.ts';
import { Dispatcher } from './sales/dispatch.ts';
import { SalesJobs } from './sales/jobs.ts';
import { DeliveryQuoter } from './sales/quote.ts';
import { salesAdminRoutes } from './sales/routes/admin-sales.ts';
import { ordersCreate } from './sales/routes/orders-create.ts';
import { ordersGet } from './sales/routes/orders-get.ts';
import { ordersVerify } from './sales/routes/orders-verify.ts';
import { OperatorSales } from './sales/operator-sales.ts';
import { PartnerSales } from './sales/partner-sales.ts';
import { SalesService } from './sales/service.ts';
import { defineModule } from '../../platform/module.ts';

/** How often the sales job runs (expiries, owed delivery orders, deliveries ended elsewhere). */
export const SALES_JOB_INTERVAL_MS = 5_000;

export interface CatalogModule {
  catalog: CatalogService;
  sales: SalesService;
  /** The partner's own sales, read by the dashboard. */
  partnerSales: PartnerSales;
  /** Every partner's sales with their journals, read by the console (finance). */
  operatorSales: OperatorSales;
  jobs: SalesJobs;
  /** Buyer refunds of prepaid sales owed money back: the job, orders.get's and the console's reads, retries, reversal hints. */
  refunds: RefundsService;
  workers: WorkerLoop[];
  operations: Operation[];
  adminRoutes: AdminRoute[];
  /** For the shared gateway callback route: settles the references that are sales, ignores others. */
  handlePaymentCallback(clientReference: string): Promise<void>;
}

/**
 * The safe-catalog service. Orders need the delivery service: with it in this instance, sales
 * create their delivery orders and follow them through the move listener (in the move's own
 * transaction; `src/flows/sale-settles-on-delivery.ts`). Without it (SERVICES=safe-catalog), the catalog, orders.get and orders.verify
 * still work (a delivery's status is read from the shared database and the sales job follows
 * deliveries that ended on other instances), and orders.create answers 503 SERVICE_UNAVAILABLE
 * before reserving anything.
 */
export interface CatalogModuleDeps {
  db: Db;
  clock: () => number;
  log: Logger;
  accounts: AccountsService;
  gateways: PaymentGateways;
  publicBaseUrl: string;
  /** A prepaid sale's checkout lapses after this many minutes (CHECKOUT_EXPIRY_MINUTES). */
  checkoutExpiryMinutes: number;
  /** Delivery's pricing and areas: a sale is quoted exactly what its delivery order will cost. */
  deliverySettings: DeliverySettings;
  /** Present when this instance serves delivery. */
  delivery: DeliveryModule | undefined;
  /** Pays mobile money refunds (those whose gateway cannot refund the charge). */
  transfers: TransferProvider | undefined;
  refundSettings: SaleRefundSettings;
}

export function createCatalogModule(deps: CatalogModuleDeps): CatalogModule {
  const { db, clock, log, accounts, gateways, delivery, deliverySettings } = deps;
  const catalog = new CatalogService(db, clock);
  const locations =
    delivery?.locations ?? new LocationsService(db, deliverySettings.areaRadiusKm, clock);
  const quoter = new DeliveryQuoter(locations, deliverySettings.pricing);
  const dispatcher = new Dispatcher({ db, clock, log, delivery: delivery?.orders, quoter });
  const sales = new SalesService({
    db,
    clock,
    log,
    gateways,
    publicBaseUrl: deps.publicBaseUrl,
    appReturnUrl: (appId) => accounts.returnUrl(appId),
    quoter,
    dispatcher,
    checkoutExpiryMs: deps.checkoutExpiryMinutes * 60_000,
  });
  const jobs = new SalesJobs({ db, clock, log, sales, dispatcher });
  const providers = new RefundProviders(gateways, deps.transfers);
  const recheckMs = deps.refundSettings.recheckMinutes * 60_000;
  const refunds = new RefundsService({
    db,
    providers,
    sender: new RefundSender({
      db,
      clock,
      log,
      providers,
      graceSeconds: deps.refundSettings.graceSeconds,
      recheckMs,
    }),
    reversals: new RefundReversals({
      db,
      clock,
      log,
      providers,
      windowMs: deps.refundSettings.watchHours * 3_600_000,
      recheckMs,
    }),
  });
  return {
    catalog,
    sales,
    partnerSales: new PartnerSales(db),
    operatorSales: new OperatorSales(db),
    jobs,
    refunds,
    workers: [
      WorkerLoop.every('safe-catalog-sales', SALES_JOB_INTERVAL_MS, () => jobs.tick(), log),
      WorkerLoop.every(
        'safe-catalog-refunds',
        deps.refundSettings.intervalMs,
        () => refunds.tick(),
        log,
      ),
    ],
    operations: [
      catalogHealth(db),
      catalogList(catalog),
      catalogGet(catalog),
      ordersCreate(sales),
      ordersVerify(sales),
      ordersGet(sales, refunds, deps.publicBaseUrl),
    ],
    adminRoutes: [
      ...catalogAdminRoutes(catalog),
      ...salesAdminRoutes(sales),
      ...refundsAdminRoutes(refunds),
    ],
    handlePaymentCallback: (ref) => sales.handleCallback(ref),
  };
}

interface Needs
  extends Omit<CatalogModuleDeps, 'checkoutExpiryMinutes' | 'deliverySettings' | 'refundSettings'> {
  config: {
    services: ReadonlySet<string>;
    payments: { checkoutExpiryMinutes: number };
    delivery: DeliverySettings;
    saleRefunds: SaleRefundSettings;
  };
}

/** The safe-catalog service's declaration: served when SERVICES names safe-catalog. */
export const catalogModule = defineModule({
  name: 'catalog',
  tables: ['vendors', 'products', 'product_variants', 'sales', 'sale_items', 'sale_refunds'],
  needs: ['accounts', 'delivery'],
  enabled: ({ config }: Needs) => config.services.has('safe-catalog'),
  build: ({ config, ...needs }: Needs) => {
    const catalog = createCatalogModule({
      ...needs,
      checkoutExpiryMinutes: config.payments.checkoutExpiryMinutes,
      deliverySettings: config.delivery,
      refundSettings: config.saleRefunds,
    });
    return {
      face: { catalog },
      operations: catalog.operations,
      adminRoutes: catalog.adminRoutes,
      workers: catalog.workers,
      paymentCallback: (ref: string) => catalog.handlePaymentCallback(ref),
    };
  },
});
