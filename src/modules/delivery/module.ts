import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/index.ts';
import type { AdminRoute } from '../../platform/http/admin.ts';
import type { Operation } from '../../platform/http/operation.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Destinations } from '../../platform/outbound/destinations.ts';
import { WorkerLoop } from '../../platform/worker-loop.ts';
import { ordersEstimate } from './estimate/routes/orders-estimate.ts';
import { locationAdminRoutes } from './locations/routes/admin-locations.ts';
import { locationsList } from './locations/routes/locations-list.ts';
import { LocationsService } from './locations/service.ts';
import { BulkOrders } from './orders/bulk.ts';
import { RefundWorker } from './orders/refund-worker.ts';
import { orderAdminRoutes } from './orders/routes/admin-order-status.ts';
import { ordersCancel } from './orders/routes/orders-cancel.ts';
import { ordersCreateBulk } from './orders/routes/orders-create-bulk.ts';
import { ordersCreate } from './orders/routes/orders-create.ts';
import { ordersGet } from './orders/routes/orders-get.ts';
import { ordersTrack } from './orders/routes/orders-track.ts';
import { OperatorOrders, PartnerOrders } from './orders/partner-orders.ts';
import type { CourierTracker } from './orders/courier-tracker.ts';
import type { ProofReader } from './orders/proof.ts';
import { type OrderClocks, OrdersService, type OrderWallet } from './orders/service.ts';
import { deliveryHealth } from './routes/health.ts';
import type { DeliverySettings } from './settings.ts';
import { QUOTE_SWEEP_INTERVAL_MS, QuoteBook } from './quotes/service.ts';
import { registerTrackingPage } from './tracking/route.ts';
import { UssdTracking } from './tracking/ussd.ts';
import { MaskedCalls } from './tracking/masked-calls.ts';
import { registerVoiceCallback, voiceCallbackPath } from './tracking/voice-route.ts';
import { registerUssdCallback } from './tracking/ussd-route.ts';
import type { GuardStore } from '../../platform/guard/types.ts';
import { defineModule } from '../../platform/module.ts';

export interface DeliveryModule {
  orders: OrdersService;
  /** Many orders at once, each exactly as orders.create (orders.create_bulk, the dashboard's upload). */
  bulkOrders: BulkOrders;
  /** A partner's orders for its people (the dashboard). */
  partnerOrders: PartnerOrders;
  /** Every partner's orders for operators (the console). */
  operatorOrders: OperatorOrders;
  locations: LocationsService;
  refunds: RefundWorker;
  /** Price-locked quotes: issued by orders.estimate, redeemed by orders.create, swept once long expired. */
  quotes: QuoteBook;
  workers: WorkerLoop[];
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
  /** Debits, refunds and return fees of wallet-funded orders, inside the order's own transaction. */
  wallet: OrderWallet;
  destinations: Destinations;
  /** The proof each order's courier gave, for orders.get (the app passes the proof module in). */
  proofs?: ProofReader | undefined;
  /** Where the courier on an order is, for orders.track and the tracking page (the app passes dispatch's). */
  tracker?: CourierTracker | undefined;
  /** The shared rate-limit store: USSD lookups are counted per session and per phone. */
  guard: GuardStore;
  /** Sandbox test clocks orders and estimates may be created on (the testClocks face, through its port). */
  clocks: OrderClocks;
}

/** The delivery service: orders, estimates, locations, tracking, and their jobs. */
export function createDeliveryModule({
  settings,
  publicBaseUrl: base,
  db,
  clock,
  log,
  wallet,
  destinations,
  proofs,
  tracker,
  guard,
  clocks,
}: DeliveryModuleDeps): DeliveryModule {
  const { pricing, calendar, areaRadiusKm, maxDeliveryAttempts, returnFeePercent } = settings;
  const locations = new LocationsService(db, areaRadiusKm);
  const quotes = new QuoteBook(db, settings.quoteTtlMinutes * 60_000);
  const orders = new OrdersService({
    db,
    clock,
    wallet,
    quotes,
    clocks,
    normalize: {
      pricing,
      calendar,
      windowMinMinutes: settings.windowMinMinutes,
      areas: locations,
      destinations,
    },
    maxAttempts: maxDeliveryAttempts,
    returnFeePercent,
  });
  const refunds = new RefundWorker(db, wallet, clock);
  const bulkOrders = new BulkOrders(orders, log);
  return {
    orders,
    bulkOrders,
    partnerOrders: new PartnerOrders(db),
    operatorOrders: new OperatorOrders(db),
    locations,
    refunds,
    quotes,
    workers: [
      WorkerLoop.every('wallet-refunds', settings.refundIntervalMs, () => refunds.tick(), log),
      WorkerLoop.every(
        'delivery-quotes-sweep',
        QUOTE_SWEEP_INTERVAL_MS,
        () => quotes.sweep(new Date(clock())),
        log,
      ),
    ],
    operations: [
      deliveryHealth(db),
      ordersCreate(orders, base),
      ordersCreateBulk(bulkOrders),
      ordersGet(orders, base, proofs),
      ordersTrack(orders, tracker),
      ordersCancel(orders),
      ordersEstimate({
        pricing,
        calendar,
        windowMinMinutes: settings.windowMinMinutes,
        locations,
        clock,
        quotes,
        clocks,
      }),
      locationsList(locations),
    ],
    adminRoutes: [...orderAdminRoutes(orders, base), ...locationAdminRoutes(locations)],
    registerPublicPages: (app) => {
      registerTrackingPage(app, db, tracker, settings.trackingMap, settings.maskedCalls);
      registerUssdCallback(
        app,
        new UssdTracking({ db, guard, log, tracker }),
        settings.ussdCallbackSecret,
      );
      const calls = settings.maskedCalls;
      if (calls) {
        const callbackUrl = `${base}${voiceCallbackPath(calls.secret)}`;
        const answer = new MaskedCalls({ db, guard, log, tracker, settings: calls, callbackUrl });
        registerVoiceCallback(app, answer, calls.secret);
      }
    },
  };
}

interface Needs {
  db: Db;
  clock: () => number;
  log: Logger;
  publicBaseUrl: string;
  destinations: Destinations;
  config: { services: ReadonlySet<string>; delivery: DeliverySettings };
  /** The wallet's service, and its operations, which live under the delivery service's paths. */
  wallet: { service: OrderWallet; operations: readonly Operation[] };
  proofs: ProofReader;
  tracker: CourierTracker;
  guard: GuardStore;
  orderClocks: OrderClocks;
}

/** Delivery orders, their statuses and tracking; served when SERVICES names delivery. */
export const deliveryModule = defineModule({
  name: 'delivery',
  tables: ['delivery_orders', 'delivery_order_events', 'delivery_locations', 'delivery_quotes'],
  needs: ['wallet', 'proofs', 'tracker', 'orderClocks'],
  enabled: ({ config }: Needs) => config.services.has('delivery'),
  settings: ({ config }: Needs) => config.delivery,
  build: (
    {
      db,
      clock,
      log,
      publicBaseUrl,
      destinations,
      wallet,
      proofs,
      tracker,
      guard,
      orderClocks,
    }: Needs,
    settings: DeliverySettings,
  ) => {
    const delivery = createDeliveryModule({
      settings,
      publicBaseUrl,
      db,
      clock,
      log,
      wallet: wallet.service,
      destinations,
      proofs,
      tracker,
      guard,
      clocks: orderClocks,
    });
    return {
      face: { delivery },
      operations: [...delivery.operations, ...wallet.operations],
      adminRoutes: delivery.adminRoutes,
      pages: (app: FastifyInstance) => delivery.registerPublicPages(app),
      workers: delivery.workers,
    };
  },
});
