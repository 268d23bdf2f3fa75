import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { openDatabase, type Db, type Queryable } from './platform/db/index.ts';
import { errors } from './platform/errors.ts';
import { MemoryGuardStore } from './platform/guard/memory.ts';
import { RedisGuardStore } from './platform/guard/redis.ts';
import type { GuardStore } from './platform/guard/types.ts';
import { adminTokenCheck, registerAdminRoutes, type AdminRoute } from './platform/http/admin.ts';
import { keepRawBodies } from './platform/http/body.ts';
import { handleError, installErrorHandling, sendError } from './platform/http/error-handler.ts';
import { answerClientError, answerOutsideRoutes, framingProblem, newRequestId } from './platform/http/protocol.ts';
import type { Operation } from './platform/http/operation.ts';
import { registerOperations } from './platform/http/register.ts';
import type { PipelineDeps } from './platform/auth/pipeline.ts';
import { installValidation } from './platform/http/validation.ts';
import { logDestination, serializeError } from './platform/logger.ts';
import { deriveKey, SecretBox } from './platform/secrets.ts';
import { resolveSecretsKey } from './platform/secrets-key.ts';
import { AccountsService, appRoutes, KeyDirectory, partnerRoutes } from './modules/accounts/index.ts';
import { createCatalogModule, RefundStatement, SALE_PAYMENT_STATUSES, SALE_STATES, type CatalogModule } from './modules/catalog/index.ts';
import { createDeliveryModule, DELIVERY_STATUSES, FAILURE_REASONS, type CourierTracker, type DeliveryModule } from './modules/delivery/index.ts';
import { createWalletModule, TopupReads, type WalletModule } from './modules/wallet/index.ts';
import { LedgerReads } from './modules/ledger/index.ts';
import { registerProbes } from './modules/health/index.ts';
import { AuditLog, auditRoutes } from './modules/audit/index.ts';
import { OperatorSignIn, OperatorsService, operatorRoutes } from './modules/operators/index.ts';
import { ActivationService, activationRoutes, MailActivationNotifier, type ActivationNotifier } from './modules/activation/index.ts';
import { createGateways, type PaymentGateways } from './integrations/payments/index.ts';
import { registerSandboxCheckout } from './integrations/payments/sandbox-page.ts';
import { registerPaymentCallbacks, type OtherGatewayEvents } from './integrations/payments/callbacks.ts';
import { createMail, MailQueue, registerMailGauges } from './integrations/mail/index.ts';
import { createStorage } from './integrations/storage/index.ts';
import { ProofService, registerMediaRoute } from './modules/proof/index.ts';
import { MembersService } from './modules/members/index.ts';
import { SessionStore } from './modules/sessions/index.ts';
import { CourierActions, courierRoutes, CouriersService, CourierSignIn, registerPresenceActions } from './modules/couriers/index.ts';
import { createSms } from './integrations/sms/index.ts';
import { createWhatsApp } from './integrations/whatsapp/index.ts';
import { courierJobView, courierProofUpload, registerCourierJobs } from './courier-jobs.ts';
import { payeeDirectory } from './payee-directory.ts';
import { registerCourierApp } from './web/courier/index.ts';
import { OPERATOR_SESSION_TIMEOUTS, registerConsole } from './web/console/index.ts';
import { registerDashboard, type DashboardDeps } from './web/dashboard/index.ts';
import { Destinations, type Resolver } from './platform/outbound/destinations.ts';
import { cashAdminRoutes, cashDue, CashService } from './modules/cash/index.ts';
import { reconciliationAdminRoutes, ReconciliationService, type GatewayReferences, type TransferBooks } from './modules/reconciliation/index.ts';
import { createPayoutsModule, PayoutStatement, type PayoutsModule } from './modules/payouts/index.ts';
import { createTransferProvider, type TransferProvider } from './integrations/transfers/index.ts';
import { COURIER_JOBS_CHANNEL, createDispatchModule, registerDispatchGauges, type DispatchModule } from './modules/dispatch/index.ts';
import { registerBacklogGauges, WebhookAdminService, WebhookDispatcher, webhookAdminRoutes, webhookEvents } from './modules/webhooks/index.ts';
import { registerApiDocs } from './platform/http/openapi.ts';
import { traceRoutes } from './platform/http/tracing.ts';
import { tracingActive } from './platform/tracing.ts';
import { Registry } from 'prom-client';
import { registerPoolGauges } from './platform/metrics/database.ts';
import { exposeMetrics } from './platform/metrics/endpoint.ts';
import { RequestHistogram, timeRoutes, UNMATCHED } from './platform/metrics/requests.ts';

export interface AppOptions {
  /** Milliseconds since the epoch; tests move time. */
  clock?: () => number;
  /** Migrated PGlite dump for in-memory databases (tests start faster from it). */
  dbTemplate?: Blob;
  /** Pino destination override (tests silence logs). */
  logStream?: NodeJS.WritableStream;
  /** DNS for webhook destinations, when set and when sent (tests answer from a table). */
  resolveHost?: Resolver;
  /** Told of activation decisions after they commit (default: the partner's owners are emailed). */
  activationNotifier?: ActivationNotifier;
  /** The transfer provider payouts are sent through (tests); by default the configured one (PAYOUT_PROVIDER). */
  transfers?: TransferProvider;
}

export interface Platform {
  config: Config;
  db: Db;
  accounts: AccountsService;
  guard: GuardStore;
  operations: readonly Operation[];
  /** Which payment gateway serves which environment. */
  gateways: PaymentGateways;
  /** Present unless WEBHOOK_DISPATCHER=off. */
  dispatcher: WebhookDispatcher | undefined;
  wallet: WalletModule;
  /** Present when the delivery service is served by this instance. */
  delivery: DeliveryModule | undefined;
  dispatch: DispatchModule | undefined;
  /** Couriers' cash on delivery and handovers (with dispatch). */
  cash: CashService | undefined;
  /** Payouts to vendors and partners. */
  payouts: PayoutsModule;
  /** Gateways' reports and couriers' cash reconciled with the ledger, day by day. */
  reconciliation: ReconciliationService;
  /** Present when the safe-catalog service is served by this instance (orders need delivery too; see module.ts). */
  catalog?: CatalogModule | undefined;
  adminRoutes: readonly AdminRoute[];
  audit: AuditLog;
  operators: OperatorsService;
  operatorSignIn: OperatorSignIn;
  /** Production activation requests: what the partner dashboard calls, and the operators' queue. */
  activation: ActivationService;
  /** The signed-request pipeline, for mounting further partner operations. */
  pipeline: PipelineDeps;
  /** The dashboard's people and their sessions. */
  members: MembersService;
  /** Mail waiting to leave, and the worker that sends it. */
  mailQueue: MailQueue;
  sessions: SessionStore;
  couriers: CouriersService;
  courierSignIn: CourierSignIn;
  /** The courier app's action kinds: other modules (dispatch) register theirs here. */
  courierActions: CourierActions;
  /** Proof of delivery: delivery codes, photos and signatures (what dispatch and the courier app record). */
  proofs: ProofService;
}

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
  }
}

async function openGuardStore(config: Config, log: FastifyBaseLogger, clock: () => number): Promise<GuardStore> {
  if (!config.redisUrl) return new MemoryGuardStore(config.nonceTtlSeconds * 1000, clock);
  const store = new RedisGuardStore(config.redisUrl, config.nonceTtlSeconds * 1000, log);
  await store.connect();
  return store;
}

/** Builds the whole server (not listening): storage, stores, partner and operator routes. */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const clock = options.clock ?? Date.now;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers["x-signature"]'],
      serializers: { err: serializeError },
      stream: options.logStream ?? logDestination(config.logFormat),
    },
    genReqId: newRequestId,
    requestIdHeader: false,
    // Errors before routing get the one error body too (see protocol.ts).
    clientErrorHandler: answerClientError,
    frameworkErrors: handleError,
    // One line per response is written by the onResponse hook below instead.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    // Slow senders (slow loris) cannot hold a connection: the whole request must arrive in time.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: 5_000,
    // Node checks request deadlines on this interval (30 s by default, too coarse for the timeout).
    // A missing Host is refused by framingProblem instead, with the error body.
    http: { connectionsCheckingInterval: 1000, requireHostHeader: false },
    return503OnClosing: false,
    // On close, keep-alive connections with no request in flight are closed at once (see the onSend hook).
    forceCloseConnections: 'idle',
    // Only the proxies named in TRUST_PROXY may say who the client is (request.ip).
    trustProxy: config.trustProxy ?? false,
  });

  // Before the database opens: a shared database without the shared key refuses to start.
  const secretsKey = resolveSecretsKey(
    { secretsKey: config.secretsKey, keyDir: config.database.kind === 'memory' ? undefined : config.dataDir, required: config.database.kind === 'postgres' },
    app.log,
  );
  const db = await openDatabase(config.database, { template: options.dbTemplate });
  const box = new SecretBox(secretsKey);
  const guard = await openGuardStore(config, app.log, clock);
  const keys = new KeyDirectory(db, box, config.authCacheTtlMs, clock);
  const destinations = new Destinations(config.webhooks.localDestinations, options.resolveHost);
  const accounts = new AccountsService(db, box, destinations, () => keys.invalidate());
  if (config.webhooks.localDestinations) {
    app.log.warn('WEBHOOK_LOCAL_DESTINATIONS=on: staging webhook events may be sent to loopback and private addresses of this network. For development only; never on a deployment partners can reach.');
  }

  // Before any route is mounted: every route is timed (and traced) from its mounting on.
  const requests = new RequestHistogram();
  timeRoutes(app, requests);
  // The SDK is loaded only when tracing is configured (a test may have registered one already).
  const tracing = config.tracing ? await (await import('./platform/tracing-sdk.ts')).startTracing(config.tracing) : undefined;
  if (tracingActive()) traceRoutes(app);
  installValidation(app);
  keepRawBodies(app, config.bodyLimitBytes);
  installErrorHandling(app, requests.recorder(UNMATCHED));

  let closing = false;
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) return sendError(reply, errors.serviceUnavailable('The server is restarting; retry in a moment.'));
    const problem = framingProblem(request);
    if (problem) return sendError(reply, problem);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { method: request.method, route: request.routeOptions.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10, key: request.auth?.keyId },
      'request',
    );
  });
  // Every answer sent while shutting down, in-flight ones included, closes its connection: a client
  // kept on keep-alive would hold the process until the connection's idle timeout.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('preClose', async () => {
    closing = true;
  });

  registerProbes(app, { database: () => db.ping(), ...(config.redisUrl ? { redis: () => guard.ping() } : {}) });
  const operations: Operation[] = [];
  const audit = new AuditLog(db, clock);
  const operators = new OperatorsService(db, clock);
  const operatorSignIn = new OperatorSignIn(db, box, clock, app.log);
  const { publicBaseUrl } = config;
  const mail = createMail(config.mail, db, app.log, publicBaseUrl);
  // Mail is queued with the change that causes it and sent by this worker (every instance runs one;
  // MAIL_POLL_MS=0 runs none here).
  const mailQueue = new MailQueue(db, mail.mailer, clock, app.log, config.mail.pollMs, config.mail.retentionDays * 86_400_000);
  const members = new MembersService({ db, accounts, mail: mailQueue, publicBaseUrl, clock });
  const ownerEmails = async (partnerId: string) => (await members.team(partnerId)).filter((m) => m.role === 'owner').map((m) => m.email);
  const notifier = options.activationNotifier ?? new MailActivationNotifier({ ownerEmails, send: (m) => mailQueue.send(db, m), publicBaseUrl });
  const activation = new ActivationService({ db, accounts, audit, clock, log: app.log, notifier });
  const sessions = new SessionStore(db, clock);
  const couriers = new CouriersService(db, clock);
  const sms = createSms(config.sms, db, app.log, publicBaseUrl);
  const whatsapp = createWhatsApp(config.whatsapp);
  const courierSignIn = new CourierSignIn({ db, clock, couriers, sendText: (m) => sms.sender.send(m), log: app.log });
  const courierActions = new CourierActions(db, clock);
  registerPresenceActions(courierActions, couriers);
  // A deactivated courier is signed out everywhere at once.
  const endCourierSessions = async (courierId: string) => void (await sessions.endAllFor({ kind: 'courier', id: courierId }));
  const adminRoutes: AdminRoute[] = [
    ...partnerRoutes(accounts),
    ...courierRoutes(couriers, { onDeactivated: endCourierSessions }),
    ...appRoutes(accounts, clock),
    ...operatorRoutes(operators, operatorSignIn),
    ...auditRoutes(audit),
    ...activationRoutes(activation),
  ];
  const gateways = createGateways(config.payments, config.publicBaseUrl, db, clock);
  // Sandbox money for production is allowed on this machine only (config.ts): a choice, not a warning.
  app.log.info(gateways.summary);
  // Gateway callbacks name a client reference; each module settles the ones that are its own.
  const paymentHandlers: Array<(clientReference: string) => Promise<void>> = [];
  const wallet = createWalletModule({ db, clock, log: app.log, accounts, gateways, publicBaseUrl });
  adminRoutes.push(...wallet.adminRoutes);
  paymentHandlers.push(wallet.handlePaymentCallback);
  const storage = createStorage(config.storage, { dataDir: config.dataDir, memory: config.database.kind === 'memory' }, clock);
  // An unwritable directory would fail every proof upload later: the process refuses to start, naming it.
  await storage.ready();
  app.log.info(storage.storage.summary);
  const proofs = new ProofService({ db, storage: storage.storage, key: deriveKey(secretsKey, 'proof'), publicBaseUrl, clock, log: app.log });
  registerMediaRoute(app, proofs);
  // Dispatch (made after delivery, which it listens to) answers where an order's courier is; the
  // tracker is only asked at request time, once dispatch exists.
  const tracker: CourierTracker = {
    forOrder: async (orderId) => dispatch?.trail.forOrder(orderId),
    forOrders: async (orderIds) => dispatch?.trail.forOrders(orderIds) ?? new Map(),
  };
  const delivery = config.services.has('delivery')
    ? createDeliveryModule({ settings: config.delivery, publicBaseUrl, db, clock, log: app.log, wallet: wallet.service, destinations, proofs, tracker })
    : undefined;
  if (delivery) {
    // The wallet's operations live under the delivery service's paths.
    operations.push(...delivery.operations, ...wallet.operations);
    adminRoutes.push(...delivery.adminRoutes);
    delivery.registerPublicPages(app);
  }
  const dispatch = delivery ? createDispatchModule({ settings: config.dispatch, db, clock, log: app.log, delivery, couriers }) : undefined;
  if (dispatch) adminRoutes.push(...dispatch.adminRoutes);
  if (dispatch && delivery) registerCourierJobs({ actions: courierActions, dispatch: dispatch.service, sandbox: dispatch.sandbox, orders: delivery.orders, proofs, sms: sms.sender, whatsapp, publicBaseUrl, log: app.log });
  const transfers = options.transfers ?? createTransferProvider(config.transfers, db, clock);
  const catalog = config.services.has('safe-catalog')
    ? createCatalogModule({
        db,
        clock,
        log: app.log,
        accounts,
        gateways,
        publicBaseUrl,
        checkoutExpiryMinutes: config.payments.checkoutExpiryMinutes,
        deliverySettings: config.delivery,
        delivery,
        transfers,
        refundSettings: config.saleRefunds,
      })
    : undefined;
  if (catalog) {
    operations.push(...catalog.operations);
    adminRoutes.push(...catalog.adminRoutes);
    paymentHandlers.push((ref) => catalog.handlePaymentCallback(ref));
  }
  // Cash on delivery: what a courier collects goes on their cash account in the delivered action's
  // transaction. Staging's sandbox courier collects nothing: test orders never reach the books.
  const cash = dispatch
    ? new CashService(db, clock, async (tx, orderId) => {
        const order = await delivery!.orders.find(orderId, tx);
        return order?.environment === 'staging' ? cashDue(undefined, undefined) : cashDue(order, await catalog?.sales.cashOnDelivery(tx, orderId));
      })
    : undefined;
  if (cash) {
    dispatch!.service.onDeliver(cash.collect);
    adminRoutes.push(...cashAdminRoutes(cash));
  }
  // Reconciliation finds the gateway reference of a ledger subject through the modules that own it.
  const topups = new TopupReads(db);
  const gatewayReferences: GatewayReferences = async (ids) => new Map([...(await topups.references(ids)), ...((await catalog?.operatorSales.references(ids)) ?? [])]);
  // Money out is matched against the payouts and buyer refunds sent through the transfer provider, read through their modules' faces.
  const transferBooks: TransferBooks[] = [new PayoutStatement(db), ...(catalog ? [new RefundStatement(db)] : [])];
  const reconciliation = new ReconciliationService(db, clock, gatewayReferences, cash, { provider: transfers.name, books: transferBooks });
  adminRoutes.push(...reconciliationAdminRoutes(reconciliation));
  // An operator's destination change is told to the payee's old contact: a vendor by text, a partner's owners by mail.
  const notices = {
    text: (to: string, body: string) => sms.sender.send({ to, body }),
    ownerEmails: async (partnerId: string) => (await members.team(partnerId)).filter((m) => m.role === 'owner').map((m) => m.email),
    mail: (tx: Queryable, to: string, subject: string, text: string) => mailQueue.send(tx, { to, subject, text }),
  };
  const codVendorsOf = async (orders: readonly string[]) => (catalog ? catalog.operatorSales.codVendorsOf(orders) : []);
  const payouts = createPayoutsModule({ db, clock, log: app.log, provider: transfers, settings: config.payouts, directory: payeeDirectory(accounts, catalog?.catalog), notices, codVendorsOf });
  adminRoutes.push(...payouts.adminRoutes);
  // Same-day vendors are paid after each courier cash handover: its transaction writes the run's request
  // (the cash module only tells; payouts decides, at once after the commit or from its job).
  cash?.onHandover((tx, h) => payouts.runRequests.request(tx, { handoverId: h.id, courierId: h.courier_id, handedOverAt: h.created_at }));
  // Partners are paid their markup on sales: their payouts are read under the safe-catalog paths.
  if (catalog) operations.push(...payouts.operations);
  // A transfer event about a reference that is no payout may be a buyer refund's (mobile money): its outcome or reversal is asked about.
  const refundHints = (raw: string, headers: Record<string, string | string[] | undefined>) => catalog?.refunds.hint(raw, headers) ?? Promise.resolve(false);
  payouts.registerWebhook(app, refundHints);
  // Paystack sends transfer events to the one webhook URL its collections use.
  const transferEvents: OtherGatewayEvents = async (gateway, headers, rawBody) => {
    if (gateway !== transfers.name) return false;
    const raw = rawBody.toString('utf8');
    const answer = await payouts.sender.hint(raw, headers);
    if (answer === 'unknown') await refundHints(raw, headers);
    return answer !== 'invalid';
  };
  const pipeline: PipelineDeps = { keys, guard, clock, defaultLimits: config.rateLimits, clockSkewSeconds: config.clockSkewSeconds };
  registerOperations(app, operations, pipeline);
  const webhookAdmin = new WebhookAdminService(db, accounts, clock);
  adminRoutes.push(...webhookAdminRoutes(webhookAdmin));
  const dispatcher = config.webhooks.dispatcher ? new WebhookDispatcher(db, box, config.webhooks, destinations, clock, app.log) : undefined;
  registerPaymentCallbacks(app, gateways.all, paymentHandlers, transferEvents);
  registerSandboxCheckout(app, gateways.sandbox);
  app.log.info(mail.mailer.summary);
  mail.registerPages(app);
  app.log.info(sms.sender.summary);
  app.log.info(whatsapp?.summary ?? 'whatsapp: no WHATSAPP_PROVIDER, so delivery codes go by SMS only');
  sms.registerPages(app);
  const dashboardDeps: DashboardDeps = {
    accounts,
    activation,
    members,
    sessions,
    partnerOrders: delivery?.partnerOrders,
    orderUpload: delivery && { bulk: delivery.bulkOrders, audit },
    proofs,
    partnerSales: catalog?.partnerSales,
    wallet: wallet.service,
    payouts: { module: payouts, mail: mailQueue, audit, coolingHours: config.payouts.coolingHours },
    publicBaseUrl,
    webhooks: { webhooks: webhookAdmin, audit },
  };
  registerDashboard(app, dashboardDeps);
  registerCourierApp(app, { job: dispatch && delivery ? courierJobView(dispatch.service, delivery.orders, couriers) : undefined, jobChanges: dispatch && ((onChange) => db.listen(COURIER_JOBS_CHANNEL, onChange)), proof: dispatch && courierProofUpload(dispatch.service, proofs), couriers, signIn: courierSignIn, actions: courierActions, sessions }, dashboardDeps);
  registerConsole(app, { couriers: { service: couriers, endSessions: endCourierSessions }, accounts, activation, audit, operators, operatorSignIn, sessions: new SessionStore(db, clock, OPERATOR_SESSION_TIMEOUTS), webhooks: webhookAdmin, wallet: wallet.service, journals: new LedgerReads(db), topups, catalog: catalog?.catalog, sales: catalog?.operatorSales, refunds: catalog?.refunds, orders: delivery && { read: delivery.operatorOrders, service: delivery.orders }, dispatch: dispatch?.service, cash, payouts, reconciliation }, dashboardDeps);
  if (config.adminToken) {
    registerAdminRoutes(app, { adminToken: config.adminToken, resolveToken: (bearer) => operators.actorForToken(bearer), changes: { record: (change, tx) => audit.record(change, tx), db } }, adminRoutes);
  }
  const appMetrics = new Registry();
  requests.registerOn(appMetrics);
  registerPoolGauges(appMetrics, db);
  registerBacklogGauges(appMetrics, db, clock);
  registerMailGauges(appMetrics, mailQueue);
  if (dispatch) registerDispatchGauges(appMetrics, db);
  exposeMetrics(app, appMetrics, {
    checkAdminToken: config.adminToken ? adminTokenCheck(config.adminToken) : undefined,
    port: config.metricsPort,
    host: config.host,
  });

  app.server.maxConnections = config.maxConnections;
  app.server.headersTimeout = Math.min(config.requestTimeoutMs, 60_000);
  answerOutsideRoutes(app);
  app.decorate('platform', { config, db, accounts, guard, gateways, operations, adminRoutes, audit, operators, operatorSignIn, activation, pipeline, wallet, delivery, dispatch, cash, payouts, reconciliation, dispatcher, catalog, members, mailQueue, sessions, proofs, couriers, courierSignIn, courierActions });
  registerApiDocs(app, webhookEvents({ deliveryStatuses: DELIVERY_STATUSES, failureReasons: FAILURE_REASONS, saleStates: SALE_STATES, salePaymentStatuses: SALE_PAYMENT_STATUSES }));
  app.addHook('onReady', async () => {
    delivery?.workers.forEach((w) => w.start());
    dispatch?.workers.forEach((w) => w.start());
    catalog?.workers.forEach((w) => w.start());
    payouts.workers.forEach((w) => w.start());
    dispatcher?.start();
    mailQueue.start();
  });
  app.addHook('onClose', async () => {
    await Promise.all([...(delivery?.workers.map((w) => w.stop()) ?? []), ...(dispatch?.workers.map((w) => w.stop()) ?? []), ...(catalog?.workers.map((w) => w.stop()) ?? []), ...payouts.workers.map((w) => w.stop()), dispatcher?.stop(), mailQueue.stop(), courierSignIn.settled(), payouts.runRequests.settled()]);
    await guard.close();
    mail.close();
    storage.close();
    await db.close();
    await tracing?.shutdown();
  });
  return app;
}
