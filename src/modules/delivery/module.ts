import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../platform/db/index.ts';
import type { AdminRoute } from '../../platform/http/admin.ts';
import type { Operation } from '../../platform/http/operation.ts';
import { SandboxCourier } from './courier/sandbox-courier.ts';
import { ordersEstimate } from './estimate/routes/orders-estimate.ts';
import { LocationsService } from './locations/service.ts';
import { locationAdminRoutes } from './locations/routes/admin-locations.ts';
import { locationsList } from './locations/routes/locations-list.ts';
import { orderAdminRoutes } from './orders/routes/admin-order-status.ts';
import { ordersCancel } from './orders/routes/orders-cancel.ts';
import { ordersCreate } from './orders/routes/orders-create.ts';
import { ordersCreateBulk } from './orders/routes/orders-create-bulk.ts';
import { ordersGet } from './orders/routes/orders-get.ts';
import { ordersTrack } from './orders/routes/orders-track.ts';
import { OrdersService } from './orders/service.ts';
import { RefundWorker } from './orders/refund-worker.ts';
import { Periodic } from '../../platform/periodic.ts';
import type { PaymentGateways } from '../../integrations/payments/index.ts';
import type { AccountsService } from '../accounts/service.ts';
import type { Destinations } from '../../platform/outbound/destinations.ts';
import { WalletService } from '../wallet/service.ts';
import { walletBalance } from '../wallet/routes/wallet-balance.ts';
import { walletTopupInitiate } from '../wallet/routes/wallet-topup-initiate.ts';
import { walletTopupVerify } from '../wallet/routes/wallet-topup-verify.ts';
import { walletAdminRoutes } from '../wallet/routes/admin-wallet.ts';
import { registerTrackingPage } from './tracking/route.ts';
import { deliveryHealth } from './routes/health.ts';

export interface DeliveryModule {
  orders: OrdersService;
  locations: LocationsService;
  wallet: WalletService;
  courier: SandboxCourier;
  refunds: RefundWorker;
  workers: Periodic[];
  operations: Operation[];
  adminRoutes: AdminRoute[];
  registerPublicPages(app: FastifyInstance): void;
}

/** What the app hands each service module. */
export interface ModuleDeps {
  config: Config;
  db: Db;
  clock: () => number;
  log: FastifyBaseLogger;
  accounts: AccountsService;
  gateways: PaymentGateways;
}

/** The delivery service with its wallet: services, partner operations, operator routes and workers. */
export function createDeliveryModule(deps: ModuleDeps & { destinations: Destinations }): DeliveryModule {
  const { config, db, clock, log, accounts, gateways, destinations } = deps;
  const { pricing, calendar, areaRadiusKm, sandboxCourierStepSeconds, refundIntervalMs } = config.delivery;
  const base = config.publicBaseUrl;
  const wallet = new WalletService({ db, gateways, clock, log, publicBaseUrl: base, appReturnUrl: async (appId) => (await accounts.getApp(appId))?.return_url ?? null });
  const locations = new LocationsService(db, areaRadiusKm);
  const orders = new OrdersService({ db, clock, wallet, normalize: { pricing, calendar, areas: locations, destinations } });
  const courier = new SandboxCourier(db, orders, sandboxCourierStepSeconds * 1000, clock);
  const refunds = new RefundWorker(db, wallet, clock);
  return {
    orders,
    locations,
    wallet,
    courier,
    refunds,
    workers: [
      new Periodic('sandbox-courier', sandboxCourierStepSeconds > 0 ? Math.max(250, sandboxCourierStepSeconds * 500) : 0, () => courier.tick(), log),
      new Periodic('wallet-refunds', refundIntervalMs, () => refunds.tick(), log),
    ],
    operations: [
      deliveryHealth(db),
      ordersCreate(orders, base),
      ordersCreateBulk(orders),
      ordersGet(orders, base),
      ordersTrack(orders),
      ordersCancel(orders),
      ordersEstimate({ pricing, calendar, locations, clock }),
      locationsList(locations),
      walletBalance(wallet),
      walletTopupInitiate(wallet),
      walletTopupVerify(wallet),
    ] as Operation[],
    adminRoutes: [...orderAdminRoutes(orders, base), ...locationAdminRoutes(locations), ...walletAdminRoutes(wallet, accounts)] as AdminRoute[],
    registerPublicPages: (app) => registerTrackingPage(app, db),
  };
}
