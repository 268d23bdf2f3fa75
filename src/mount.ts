import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import type { Composition } from './composition.ts';
import type { Context } from './context.ts';
import { platformOf } from './platform-face.ts';
import { courierProofUpload } from './flows/courier-delivers-order.ts';
import { courierJobView } from './flows/courier-job-screen.ts';
import { offerPushesCourier } from './flows/offer-pushes-courier.ts';
import { registerPaymentCallbacks } from './integrations/payments/callbacks.ts';
import { registerSandboxCheckout } from './integrations/payments/sandbox-page.ts';
import { SALE_PAYMENT_STATUSES, SALE_STATES } from './modules/catalog/index.ts';
import { DELIVERY_STATUSES, FAILURE_REASONS } from './modules/delivery/index.ts';
import { COURIER_JOBS_CHANNEL } from './modules/dispatch/index.ts';
import { SessionStore } from './modules/sessions/index.ts';
import { webhookEvents } from './modules/webhooks/index.ts';
import { adminTokenCheck, registerAdminRoutes } from './platform/http/admin.ts';
import { registerApiDocs } from './platform/http/openapi.ts';
import { answerOutsideRoutes } from './platform/http/protocol.ts';
import { registerOperations } from './platform/http/register.ts';
import type { installRequestHandling } from './platform/http/server.ts';
import { exposeMetrics } from './platform/metrics/endpoint.ts';
import { registerCourierApp, type CourierAppDeps, type CourierPush } from './web/courier/index.ts';
import {
  OPERATOR_SESSION_TIMEOUTS,
  registerConsole,
  type ConsoleDeps,
} from './web/console/index.ts';
import { registerDashboard, type DashboardDeps } from './web/dashboard/index.ts';

// How the app is served over HTTP (app.ts says what it is made of): the partner operations,
// callbacks and pages, the web, the operator API, metrics and the API documents.

/** What the courier app is made from: dispatch's jobs (when served here), couriers, sessions, push. */
function courierAppDeps(c: Context): CourierAppDeps {
  const { dispatch, delivery, couriers } = c;
  return {
    job:
      dispatch && delivery
        ? courierJobView(dispatch.service, delivery.orders, couriers)
        : undefined,
    jobChanges: dispatch && ((onChange) => c.db.listen(COURIER_JOBS_CHANNEL, onChange)),
    proof: dispatch && courierProofUpload(dispatch.service, c.proofs),
    push: courierPush(c),
    couriers,
    earnings: c.earnings,
    payouts: c.payouts?.service,
    listen: (channel, onNotify) => c.db.listen(channel, onNotify),
    clock: c.clock,
    signIn: c.courierSignIn,
    actions: c.courierActions,
    sessions: c.sessions,
  };
}

/** Web Push of new offers to couriers' phones, when push is on and dispatch is served here. */
function courierPush(c: Context): CourierPush | undefined {
  const { push, dispatch, delivery } = c;
  if (!push || !dispatch || !delivery) return undefined;
  return {
    publicKey: push.publicKey,
    endpoints: c.config.push.endpoints,
    subscriptions: c.pushSubscriptions,
    round: offerPushesCourier({
      offers: () => dispatch.service.newestOpenOffers(),
      sheet: (orderId) => delivery.orders.jobSheet(orderId),
      subscriptions: c.pushSubscriptions,
      sessions: c.sessions,
      push,
      clock: c.clock,
      log: c.log,
    }),
  };
}

/** The presentation layer: the partner dashboard, the courier app and the operator console. */
function mountWeb(app: FastifyInstance, c: Context): void {
  const {
    accounts,
    activation,
    members,
    sessions,
    delivery,
    catalog,
    proofs,
    audit,
    webhookAdmin: webhooks,
  } = c;
  const dashboardDeps: DashboardDeps = {
    accounts,
    activation,
    members,
    sessions,
    proofs,
    publicBaseUrl: c.publicBaseUrl,
    partnerOrders: delivery?.partnerOrders,
    orderUpload: delivery && { bulk: delivery.bulkOrders, audit },
    partnerSales: catalog?.partnerSales,
    wallet: c.wallet.service,
    payouts: {
      module: c.payouts,
      mail: c.mailQueue,
      audit,
      coolingHours: c.config.payouts.coolingHours,
    },
    webhooks: { webhooks, audit },
    messages: c.messages && { service: c.messages.service, prices: c.messages.settings },
  };
  registerDashboard(app, dashboardDeps);
  registerCourierApp(app, courierAppDeps(c), dashboardDeps);
  registerConsole(app, consoleDeps(c), dashboardDeps);
}

/** What the operator console reads and changes, from the composition (a module not served here is absent). */
function consoleDeps(c: Context): ConsoleDeps {
  const { accounts, activation, delivery, dispatch, catalog, couriers, audit } = c;
  const webhooks = c.webhookAdmin;
  return {
    couriers: { service: couriers, endSessions: c.endCourierSessions },
    accounts,
    activation,
    audit,
    operators: c.operators,
    operatorSignIn: c.operatorSignIn,
    sessions: new SessionStore(c.db, c.clock, OPERATOR_SESSION_TIMEOUTS),
    webhooks,
    wallet: c.wallet.service,
    journals: c.journals,
    topups: c.topups,
    catalog: catalog?.catalog,
    sales: catalog?.operatorSales,
    refunds: catalog?.refunds,
    orders: delivery && { read: delivery.operatorOrders, service: delivery.orders },
    dispatch: dispatch?.service,
    messages: c.messages?.service,
    cash: c.cash,
    earnings: c.earnings,
    confirmations: dispatch ? c.proofConfirmations : undefined,
    payouts: c.payouts,
    reconciliation: c.reconciliation,
    listen: (channel, onNotify) => c.db.listen(channel, onNotify),
    map: c.config.delivery.trackingMap,
  };
}

/** Mounts the composition over HTTP: partner operations, callbacks and pages, the web, the operator API, metrics, docs. */
export function mount(
  app: FastifyInstance,
  composed: Composition,
  requests: ReturnType<typeof installRequestHandling>,
): void {
  const { ctx: c, parts, operations, adminRoutes } = composed;
  const { config } = c;
  for (const part of parts) part.pages?.(app);
  const pipeline = {
    keys: c.keys,
    guard: c.guard,
    clock: c.clock,
    defaultLimits: config.rateLimits,
    clockSkewSeconds: config.clockSkewSeconds,
  };
  registerOperations(app, operations, pipeline);
  // Gateway callbacks name a client reference; each module settles the ones that are its own.
  registerPaymentCallbacks(
    app,
    c.gateways.all,
    parts.flatMap((p) => p.paymentCallback ?? []),
    c.transferEvents,
  );
  registerSandboxCheckout(app, c.gateways.sandbox);
  c.mail.registerPages(app);
  c.sms.registerPages(app);
  mountWeb(app, c);
  if (config.adminToken) {
    registerAdminRoutes(
      app,
      {
        adminToken: config.adminToken,
        resolveToken: (bearer) => c.operators.actorForToken(bearer),
        changes: { record: (change, tx) => c.audit.record(change, tx), db: c.db },
      },
      adminRoutes,
    );
  }
  const appMetrics = new Registry();
  requests.registerOn(appMetrics);
  composed.registerGauges(appMetrics);
  exposeMetrics(app, appMetrics, {
    checkAdminToken: config.adminToken ? adminTokenCheck(config.adminToken) : undefined,
    port: config.metricsPort,
    host: config.host,
  });
  app.server.maxConnections = config.maxConnections;
  app.server.headersTimeout = Math.min(config.requestTimeoutMs, 60_000);
  answerOutsideRoutes(app);
  app.decorate('platform', platformOf(composed, pipeline));
  registerApiDocs(
    app,
    webhookEvents({
      deliveryStatuses: DELIVERY_STATUSES,
      failureReasons: FAILURE_REASONS,
      saleStates: SALE_STATES,
      salePaymentStatuses: SALE_PAYMENT_STATUSES,
    }),
  );
}
