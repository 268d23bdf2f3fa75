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
import { OrdersService, type OrderWallet } from './orders/service.ts';
import { walletNotAvailable } from './orders/wallet-pending.ts';
import { registerTrackingPage } from './tracking/route.ts';
import { deliveryHealth } from './routes/health.ts';

export interface DeliveryModule {
  orders: OrdersService;
  locations: LocationsService;
  courier: SandboxCourier;
  operations: Operation[];
  adminRoutes: AdminRoute[];
  registerPublicPages(app: FastifyInstance): void;
}

/** The delivery service: its services, partner operations, operator routes and sandbox courier. */
export function createDeliveryModule(deps: { config: Config; db: Db; clock: () => number; log: FastifyBaseLogger; wallet?: OrderWallet }): DeliveryModule {
  const { config, db, clock } = deps;
  const { pricing, calendar, areaRadiusKm, sandboxCourierStepSeconds } = config.delivery;
  const locations = new LocationsService(db, areaRadiusKm);
  const orders = new OrdersService({
    db,
    clock,
    wallet: deps.wallet ?? walletNotAvailable,
    normalize: { pricing, calendar, areas: locations },
  });
  const base = config.publicBaseUrl;
  return {
    orders,
    locations,
    courier: new SandboxCourier(db, orders, sandboxCourierStepSeconds * 1000, clock, deps.log),
    operations: [
      deliveryHealth(db),
      ordersCreate(orders, base),
      ordersCreateBulk(orders),
      ordersGet(orders, base),
      ordersTrack(orders),
      ordersCancel(orders),
      ordersEstimate({ pricing, calendar, locations, clock }),
      locationsList(locations),
    ] as Operation[],
    adminRoutes: [...orderAdminRoutes(orders, base), ...locationAdminRoutes(locations)] as AdminRoute[],
    registerPublicPages: (app) => registerTrackingPage(app, db),
  };
}
