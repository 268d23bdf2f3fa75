import type { FastifyBaseLogger } from 'fastify';
import type { Registry } from 'prom-client';
import type { Config } from './config.ts';
import type { Context, Faces, Kernel, PortMakers } from './context.ts';
import { createGateways } from './integrations/payments/index.ts';
import { createMail, MailQueue, registerMailGauges } from './integrations/mail/index.ts';
import { createPush } from './integrations/push/index.ts';
import { createSms } from './integrations/sms/index.ts';
import { createStorage } from './integrations/storage/index.ts';
import { createTransferProvider } from './integrations/transfers/index.ts';
import { createWhatsApp } from './integrations/whatsapp/index.ts';
import type { AppOptions } from './context.ts';
import { openDatabase } from './platform/db/index.ts';
import { registerPoolGauges } from './platform/metrics/database.ts';
import { MemoryGuardStore } from './platform/guard/memory.ts';
import { RedisGuardStore } from './platform/guard/redis.ts';
import type { GuardStore } from './platform/guard/types.ts';
import type { AdminRoute } from './platform/http/admin.ts';
import type { Operation } from './platform/http/operation.ts';
import type { FlowDefinition, ModuleDefinition, ModuleParts } from './platform/module.ts';
import { Destinations } from './platform/outbound/destinations.ts';
import { SecretBox } from './platform/secrets.ts';
import { resolveSecretsKey } from './platform/secrets-key.ts';
import { scopedClock } from './platform/clock-scope.ts';

/**
 * The generic mechanics of one process: the kernel (database, stores, integrations), then the
 * app's modules in the order `app.ts` lists them (each sees the faces built before it and the
 * app's ports), then the flows between them. Both the server (`app.ts`, which mounts the HTTP
 * parts) and the worker (jobs only, no HTTP) start from the same composition.
 */
// biome-ignore lint/suspicious/noExplicitAny: each module's settings type is its own; the list still checks needs and faces
export type AnyModule = ModuleDefinition<Context, Partial<Faces>, any>;

export interface AppParts {
  modules: readonly AnyModule[];
  ports: PortMakers;
  flows: readonly FlowDefinition<Context>[];
}

export interface Composition {
  ctx: Context;
  /** Each module's parts, in list order (disabled modules left out). */
  parts: ReadonlyArray<ModuleParts<Partial<Faces>>>;
  operations: Operation[];
  adminRoutes: AdminRoute[];
  /** The process's gauges: the database pool, the mail queue and each module's. */
  registerGauges(registry: Registry): void;
  /** Starts every module's jobs and the integrations' workers. */
  start(): void;
  /** Stops the jobs, waits for work in flight, and closes what the kernel opened. */
  close(): Promise<void>;
}

async function openGuardStore(
  config: Config,
  log: FastifyBaseLogger,
  clock: () => number,
): Promise<GuardStore> {
  if (!config.redisUrl) return new MemoryGuardStore(config.nonceTtlSeconds * 1000, clock);
  const store = new RedisGuardStore(config.redisUrl, config.nonceTtlSeconds * 1000, log);
  await store.connect();
  return store;
}

/** The database, the stores and the integrations every module may be given. */
async function openKernel(
  config: Config,
  options: AppOptions,
  log: FastifyBaseLogger,
): Promise<Kernel> {
  // A sandbox test clock's advance (and an order made on one) sets its own time for its work alone.
  const clock = scopedClock(options.clock ?? Date.now);
  // Before the database opens: a shared database without the shared key refuses to start.
  const secretsKey = resolveSecretsKey(
    {
      secretsKey: config.secretsKey,
      keyDir: config.database.kind === 'memory' ? undefined : config.dataDir,
      required: config.database.kind === 'postgres',
    },
    log,
  );
  const storage = createStorage(
    config.storage,
    { dataDir: config.dataDir, memory: config.database.kind === 'memory' },
    clock,
  );
  // An unwritable directory would fail every proof upload later: the process refuses to start, naming it
  // (before the database opens and migrates, so the refusal comes at once).
  await storage.ready();
  const db = await openDatabase(config.database, {
    template: options.dbTemplate,
    engine: options.dbEngine,
  });
  const guard = await openGuardStore(config, log, clock);
  const destinations = new Destinations(config.webhooks.localDestinations, options.resolveHost);
  if (config.webhooks.localDestinations) {
    log.warn(
      'WEBHOOK_LOCAL_DESTINATIONS=on: staging webhook events may be sent to loopback and private addresses of this network. For development only; never on a deployment partners can reach.',
    );
  }
  // The SDK is loaded only when tracing is configured (a test may have registered one already).
  const tracing = config.tracing
    ? await (await import('./platform/tracing-sdk.ts')).startTracing(config.tracing)
    : undefined;
  const { publicBaseUrl } = config;
  const gateways = createGateways(config.payments, publicBaseUrl, db, clock);
  // Sandbox money for production is allowed on this machine only (config.ts): a choice, not a warning.
  log.info(gateways.summary);
  log.info(storage.storage.summary);
  const mail = createMail(config.mail, db, log, publicBaseUrl);
  // Mail is queued with the change that causes it and sent by this worker (every instance runs one;
  // MAIL_POLL_MS=0 runs none here).
  const mailQueue = new MailQueue(
    db,
    mail.mailer,
    clock,
    log,
    config.mail.pollMs,
    config.mail.retentionDays * 86_400_000,
  );
  const sms = createSms(config.sms, db, log, publicBaseUrl);
  const whatsapp = createWhatsApp(config.whatsapp);
  log.info(mail.mailer.summary);
  log.info(sms.sender.summary);
  log.info(whatsapp?.summary ?? 'whatsapp: no WHATSAPP_PROVIDER, so delivery codes go by SMS only');
  const push = createPush(config.push, publicBaseUrl);
  // Keys made at boot are a development server's notice to read, not a routine line.
  if (config.push.vapid === 'ephemeral') log.warn(push!.summary);
  else
    log.info(
      push?.summary ?? 'web push: off (WEB_PUSH=off), so couriers get offers on screen only',
    );
  const transfers = options.transfers ?? createTransferProvider(config.transfers, db, clock);
  return {
    config,
    options,
    clock,
    log,
    secretsKey,
    db,
    box: new SecretBox(secretsKey),
    guard,
    destinations,
    publicBaseUrl,
    gateways,
    storage,
    mail,
    mailQueue,
    sms,
    whatsapp,
    push,
    transfers,
    tracing,
  };
}

/** Builds the kernel, the modules in order, the ports and the flows; mounts nothing, starts nothing. */
export async function compose(
  config: Config,
  options: AppOptions,
  log: FastifyBaseLogger,
  app: AppParts,
): Promise<Composition> {
  const kernel = await openKernel(config, options, log);
  const ctx = { ...kernel } as Context;
  const record = ctx as unknown as Record<string, unknown>;
  // Ports read the faces they bridge when called, so they can be made before the modules are.
  for (const [name, make] of Object.entries(app.ports))
    record[name] = (make as (c: Context) => unknown)(ctx);
  const parts: ModuleParts<Partial<Faces>>[] = [];
  for (const module of app.modules) {
    const missing = module.needs.filter((name) => !(name in record));
    if (missing.length > 0)
      throw new Error(
        `module ${module.name} needs ${missing.join(', ')}: list it after the modules that provide them`,
      );
    if (module.enabled && !module.enabled(ctx)) {
      record[module.name] = undefined;
      continue;
    }
    const built = await module.build(ctx, module.settings?.(ctx));
    Object.assign(record, built.face);
    parts.push(built);
  }
  for (const flow of app.flows) flow.wire(ctx);
  const workers = parts.flatMap((p) => p.workers ?? []);
  return {
    ctx,
    parts,
    operations: parts.flatMap((p) => p.operations ?? []),
    adminRoutes: parts.flatMap((p) => p.adminRoutes ?? []),
    registerGauges(registry) {
      registerPoolGauges(registry, kernel.db);
      for (const part of parts) part.gauges?.(registry);
      registerMailGauges(registry, kernel.mailQueue);
    },
    start() {
      for (const w of workers) w.start();
      kernel.mailQueue.start();
    },
    async close() {
      await Promise.all([
        ...workers.map((w) => w.stop()),
        kernel.mailQueue.stop(),
        ...parts.map((p) => p.settled?.()),
      ]);
      await kernel.guard.close();
      kernel.mail.close();
      kernel.storage.close();
      await kernel.db.close();
      await kernel.tracing?.shutdown();
    },
  };
}
