import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/index.ts';
import type { AdminRoute } from '../../platform/http/admin.ts';
import type { Operation } from '../../platform/http/operation.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Destinations } from '../../platform/outbound/destinations.ts';
import { Periodic } from '../../platform/periodic.ts';
import { SandboxCourier } from './courier/sandbox-courier.ts';
import { ordersEstimate } from './estimate/routes/orders-estimate.ts';
import { locationAdminRoutes } from './locations/routes/admin-locations.ts';
import { locationsList } from './locations/routes/locations-list.ts';
import { LocationsService } from './locations/service.ts';
import { RefundWorker } from './orders/refund-worker.ts';
import { orderAdminRoutes } from './orders/routes/admin-order-status.ts';
import { ordersCancel } from './orders/routes/orders-cancel.ts';
import { ordersCreateBulk } from './orders/routes/orders-create-bulk.ts';
import { ordersCreate } from './orders/routes/orders-create.ts';
import { ordersGet } from './orders/routes/orders-get.ts';
import { ordersTrack } from './orders/routes/orders-track.ts';
import { OperatorOrders, PartnerOrders } from './orders/partner-orders.ts';
import { OrdersService, type OrderWallet } from './orders/service.ts';
import { deliveryHealth } from './routes/health.ts';
import type { DeliverySettings } from './settings.ts';
import { registerTrackingPage } from './tracking/route.ts';

export interface DeliveryModule {
  orders: OrdersService;
  /** A partner's orders for its people (the dashboard). */
  partnerOrders: PartnerOrders;
  /** Every partner's orders for operators (the console). */
  operatorOrders: OperatorOrders;
  locations: LocationsService;
  courier: SandboxCourier;
  refunds: RefundWorker;
  workers: Periodic[];
  operations: Operation[];
  adminRoutes: AdminRoute[];
  registerPublicPages(app: FastifyInstance): void;
}

export interface DeliveryModuleDeps {
  settings: DeliverySettings;
  publicBaseUrl: string;
  db: Db;
  clock: () => number;
  log: Logger;
  /** Debits and refunds the fees of wallet-funded orders inside the order's own transaction. */
  wallet: OrderWallet;
  destinations: Destinations;
}

/** The delivery service: orders, estimates, locations, tracking, and their jobs. */
export function createDeliveryModule({ settings, publicBaseUrl: base, db, clock, log, wallet, destinations }: DeliveryModuleDeps): DeliveryModule {
  const { pricing, calendar, areaRadiusKm, sandboxCourierStepSeconds, refundIntervalMs } = settings;
  const locations = new LocationsService(db, areaRadiusKm);
  const orders = new OrdersService({ db, clock, wallet, normalize: { pricing, calendar, areas: locations, destinations } });
  const courier = new SandboxCourier(db, orders, sandboxCourierStepSeconds * 1000, clock);
  const refunds = new RefundWorker(db, wallet, clock);
  return {
    orders,
    partnerOrders: new PartnerOrders(db),
    operatorOrders: new OperatorOrders(db),
    locations,
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
    ],
    adminRoutes: [...orderAdminRoutes(orders, base), ...locationAdminRoutes(locations)],
    registerPublicPages: (app) => registerTrackingPage(app, db),
  };
}
