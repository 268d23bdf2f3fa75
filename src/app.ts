import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { compose, type AppParts } from './composition.ts';
import type { AppOptions } from './context.ts';
import type { Platform } from './platform-face.ts';
import { accountsModule } from './modules/accounts/index.ts';
import { activationModule } from './modules/activation/index.ts';
import { auditModule } from './modules/audit/index.ts';
import { cashModule } from './modules/cash/index.ts';
import { catalogModule } from './modules/catalog/index.ts';
import { couriersModule } from './modules/couriers/index.ts';
import { deliveryModule } from './modules/delivery/index.ts';
import { dispatchModule } from './modules/dispatch/index.ts';
import { earningsModule } from './modules/earnings/index.ts';
import { healthModule } from './modules/health/index.ts';
import { ledgerModule } from './modules/ledger/index.ts';
import { messagesModule } from './modules/messages/index.ts';
import { membersModule } from './modules/members/index.ts';
import { operatorsModule } from './modules/operators/index.ts';
import { payoutsModule } from './modules/payouts/index.ts';
import { proofModule } from './modules/proof/index.ts';
import { reconciliationModule } from './modules/reconciliation/index.ts';
import { sessionsModule } from './modules/sessions/index.ts';
import { testClocksModule } from './modules/testclocks/index.ts';
import { walletModule } from './modules/wallet/index.ts';
import { webhooksModule } from './modules/webhooks/index.ts';
import { createHttpServer, installRequestHandling } from './platform/http/server.ts';
import { mount } from './mount.ts';
import { activationNotifier } from './flows/activation-mails-owners.ts';
import { assignmentTextsDeliveryCode } from './flows/assignment-texts-delivery-code.ts';
import { cashDue } from './flows/cash-due-at-the-door.ts';
import { endCourierSessions } from './flows/courier-deactivation-ends-sessions.ts';
import { courierDeliversOrder } from './flows/courier-delivers-order.ts';
import { deliveryEarnsCourierPay } from './flows/delivery-earns-courier-pay.ts';
import { courierPositionExtendsTrail } from './flows/courier-position-extends-trail.ts';
import { courierTakesJobActions } from './flows/courier-takes-job-actions.ts';
import { courierNearTextsRecipient } from './flows/courier-near-texts-recipient.ts';
import { payoutNotices } from './flows/destination-change-notifies-payee.ts';
import { codVendorsOf, handoverStartsSameDayRun } from './flows/handover-starts-same-day-run.ts';
import { orderGetsDispatchJob } from './flows/order-gets-dispatch-job.ts';
import { orderMoveEndsDispatch } from './flows/order-move-ends-dispatch.ts';
import { orderMoveTextsRecipient } from './flows/order-move-texts-recipient.ts';
import { payeesFromAccountsAndCatalog } from './flows/payouts-find-payees.ts';
import { gatewayReferences, transferBooks } from './flows/reconciliation-reads-the-books.ts';
import { saleSettlesOnDelivery } from './flows/sale-settles-on-delivery.ts';
import { testClockRunsDispatch } from './flows/test-clock-runs-dispatch.ts';
import { testClockRetriesWebhooks } from './flows/test-clock-retries-webhooks.ts';
import { testClockDeletionEndsOrders } from './flows/test-clock-deletion-ends-orders.ts';
import { orderClocks } from './flows/orders-live-on-test-clocks.ts';
import { courierTracker } from './flows/tracking-shows-courier.ts';
import { heldSubjects } from './flows/unconfirmed-delivery-holds-payout.ts';
import { refundHints, transferEvents } from './flows/transfer-events-reach-refunds.ts';

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
    testClocksModule,
    messagesModule,
    catalogModule,
    cashModule,
    earningsModule,
    reconciliationModule,
    payoutsModule,
    webhooksModule,
  ],
  // What one module asks of others, filled from their faces (src/flows/).
  ports: {
    tracker: courierTracker,
    orderClocks,
    cashDue,
    payeeDirectory: payeesFromAccountsAndCatalog,
    payoutNotices,
    codVendorsOf,
    heldSubjects,
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
    deliveryEarnsCourierPay,
    assignmentTextsDeliveryCode,
    orderMoveTextsRecipient,
    courierNearTextsRecipient,
    courierTakesJobActions,
    courierDeliversOrder,
    handoverStartsSameDayRun,
    testClockRunsDispatch,
    testClockRetriesWebhooks,
    testClockDeletionEndsOrders,
  ],
};

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
  }
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
