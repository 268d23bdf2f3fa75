import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import type { Config } from './config.ts';
import { compose, type AppParts, type Composition } from './composition.ts';
import type { AppOptions, Context } from './context.ts';
import { platformOf, type Platform } from './platform-face.ts';
import { registerPaymentCallbacks } from './integrations/payments/callbacks.ts';
import { registerSandboxCheckout } from './integrations/payments/sandbox-page.ts';
import { accountsModule } from './modules/accounts/index.ts';
import { activationModule } from './modules/activation/index.ts';
import { auditModule } from './modules/audit/index.ts';
import { cashModule } from './modules/cash/index.ts';
import { catalogModule, SALE_PAYMENT_STATUSES, SALE_STATES } from './modules/catalog/index.ts';
import { couriersModule } from './modules/couriers/index.ts';
import { DELIVERY_STATUSES, deliveryModule, FAILURE_REASONS } from './modules/delivery/index.ts';
import { COURIER_JOBS_CHANNEL, dispatchModule } from './modules/dispatch/index.ts';
import { healthModule } from './modules/health/index.ts';
import { ledgerModule } from './modules/ledger/index.ts';
import { membersModule } from './modules/members/index.ts';
import { operatorsModule } from './modules/operators/index.ts';
import { payoutsModule } from './modules/payouts/index.ts';
import { proofModule } from './modules/proof/index.ts';
import { reconciliationModule } from './modules/reconciliation/index.ts';
import { SessionStore, sessionsModule } from './modules/sessions/index.ts';
import { walletModule } from './modules/wallet/index.ts';
import { webhookEvents, webhooksModule } from './modules/webhooks/index.ts';
import { adminTokenCheck, registerAdminRoutes } from './platform/http/admin.ts';
import { registerApiDocs } from './platform/http/openapi.ts';
import { answerOutsideRoutes } from './platform/http/protocol.ts';
import { registerOperations } from './platform/http/register.ts';
import { createHttpServer, installRequestHandling } from './platform/http/server.ts';
import { exposeMetrics } from './platform/metrics/endpoint.ts';
import { activationNotifier } from './flows/activation-mails-owners.ts';
import { assignmentTextsDeliveryCode } from './flows/assignment-texts-delivery-code.ts';
import { cashDue } from './flows/cash-due-at-the-door.ts';
import { endCourierSessions } from './flows/courier-deactivation-ends-sessions.ts';
import { courierDeliversOrder, courierProofUpload } from './flows/courier-delivers-order.ts';
import { courierJobView } from './flows/courier-job-screen.ts';
import { courierPositionExtendsTrail } from './flows/courier-position-extends-trail.ts';
import { courierTakesJobActions } from './flows/courier-takes-job-actions.ts';
import { payoutNotices } from './flows/destination-change-notifies-payee.ts';
import { codVendorsOf, handoverStartsSameDayRun } from './flows/handover-starts-same-day-run.ts';
import { orderGetsDispatchJob } from './flows/order-gets-dispatch-job.ts';
import { orderMoveEndsDispatch } from './flows/order-move-ends-dispatch.ts';
import { payeesFromAccountsAndCatalog } from './flows/payouts-find-payees.ts';
import { gatewayReferences, transferBooks } from './flows/reconciliation-reads-the-books.ts';
import { saleSettlesOnDelivery } from './flows/sale-settles-on-delivery.ts';
import { courierTracker } from './flows/tracking-shows-courier.ts';
import { refundHints, transferEvents } from './flows/transfer-events-reach-refunds.ts';
import { registerCourierApp } from './web/courier/index.ts';
import { OPERATOR_SESSION_TIMEOUTS, registerConsole } from './web/console/index.ts';
import { registerDashboard, type DashboardDeps } from './web/dashboard/index.ts';

export type { AppOptions, Platform };

/** The modules, in the order they are built (each after those it needs) and their routes documented. */
export const APP: AppParts = {
  modules: [
    healthModule,
    accountsModule,
    couriersModule,
    operatorsModule,
    auditModule,
    activationModule,
    membersModule,
    sessionsModule,
    ledgerModule,
    walletModule,
    proofModule,
    deliveryModule,
    dispatchModule,
    catalogModule,
    cashModule,
    reconciliationModule,
    payoutsModule,
    webhooksModule,
  ],
  // What one module asks of others, filled from their faces (src/flows/).
  ports: {
    tracker: courierTracker,
    cashDue,
    payeeDirectory: payeesFromAccountsAndCatalog,
    payoutNotices,
    codVendorsOf,
    gatewayReferences,
    transferBooks,
    activationNotifier,
    endCourierSessions,
    refundHints,
    transferEvents,
  },
  // One module reacting to another's event (src/flows/); order matters where two hear the same event.
  flows: [
    orderGetsDispatchJob,
    orderMoveEndsDispatch,
    courierPositionExtendsTrail,
    saleSettlesOnDelivery,
    assignmentTextsDeliveryCode,
    courierTakesJobActions,
    courierDeliversOrder,
    handoverStartsSameDayRun,
  ],
};

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
  }
}

/** The presentation layer: the partner dashboard, the courier app and the operator console. */
function mountWeb(app: FastifyInstance, c: Context): void {
  const {
    accounts,
    activation,
    members,
    sessions,
    delivery,
    dispatch,
    catalog,
    proofs,
    couriers,
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
  };
  registerDashboard(app, dashboardDeps);
  registerCourierApp(
    app,
    {
      job:
        dispatch && delivery
          ? courierJobView(dispatch.service, delivery.orders, couriers)
          : undefined,
      jobChanges: dispatch && ((onChange) => c.db.listen(COURIER_JOBS_CHANNEL, onChange)),
      proof: dispatch && courierProofUpload(dispatch.service, proofs),
      couriers,
      signIn: c.courierSignIn,
      actions: c.courierActions,
      sessions,
    },
    dashboardDeps,
  );
  registerConsole(
    app,
    {
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
      cash: c.cash,
      payouts: c.payouts,
      reconciliation: c.reconciliation,
    },
    dashboardDeps,
  );
}

/** Mounts the composition over HTTP: partner operations, callbacks and pages, the web, the operator API, metrics, docs. */
function mount(
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

/** Builds the whole server (not listening): the composition, then everything it serves over HTTP. */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = createHttpServer(config, options.logStream);
  const composed = await compose(config, options, app.log, APP);
  const requests = installRequestHandling(app, config.bodyLimitBytes);
  mount(app, composed, requests);
  app.addHook('onReady', async () => composed.start());
  app.addHook('onClose', () => composed.close());
  return app;
}
