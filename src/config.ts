import { resolve } from 'node:path';
import type { DatabaseConfig } from './platform/db/index.ts';
import { isLocalAddress } from './platform/http/loopback.ts';
import { ALL_SERVICES, type ServiceName } from './platform/http/operation.ts';
import { LOG_FORMATS, type LogFormat } from './platform/logger.ts';
import { int, onOff, oneOf, type Env } from './platform/settings.ts';
import type { TracingSettings } from './platform/tracing-sdk.ts';
import { pushSettings, type PushSettings } from './integrations/push/settings.ts';
import { paymentSettings, type PaymentSettings } from './integrations/payments/settings.ts';
import { transferSettings, type TransferSettings } from './integrations/transfers/settings.ts';
import { mailSettings, type MailSettings } from './integrations/mail/settings.ts';
import { smsSettings, type SmsSettings } from './integrations/sms/settings.ts';
import { storageSettings, type StorageSettings } from './integrations/storage/settings.ts';
import { whatsAppSettings, type WhatsAppSettings } from './integrations/whatsapp/settings.ts';
import { deliverySettings, type DeliverySettings } from './modules/delivery/index.ts';
import { dispatchSettings, type DispatchSettings } from './modules/dispatch/index.ts';
import { proofSettings, type ProofSettings } from './modules/proof/index.ts';
import { messageSettings, type MessageSettings } from './modules/messages/index.ts';
import { payoutSettings, type PayoutSettings } from './modules/payouts/index.ts';
import { saleRefundSettings, type SaleRefundSettings } from './modules/catalog/index.ts';
import { webhookSettings, type WebhookSettings } from './modules/webhooks/index.ts';

export type { DatabaseConfig, ServiceName };
export { ALL_SERVICES };

export interface Config {
  port: number;
  host: string;
  /** Serve /metrics on this port, unauthenticated, instead of beside the operator API. */
  metricsPort: number | undefined;
  publicBaseUrl: string;
  services: ReadonlySet<ServiceName>;
  dataDir: string;
  database: DatabaseConfig;
  redisUrl: string | undefined;
  adminToken: string | undefined;
  /** 32-byte key that seals secrets at rest; undefined means a development key is used. */
  secretsKey: Buffer | undefined;
  logLevel: string;
  /** Log lines as JSON, or for people (`auto`: for people when standard output is a terminal). */
  logFormat: LogFormat;
  /** Set when spans are exported (TRACING=otlp, or an OTLP endpoint given); off otherwise. */
  tracing: TracingSettings | undefined;
  rateLimits: { readsPerMinute: number; writesPerMinute: number };
  /** How long an instance may serve a cached key, partner status or limit (must stay under 5 s). */
  authCacheTtlMs: number;
  nonceTtlSeconds: number;
  clockSkewSeconds: number;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  /** A request must arrive whole (headers and body) within this; slow senders are cut off. */
  requestTimeoutMs: number;
  /** Open connections per instance; more are refused until some close. */
  maxConnections: number;
  /**
   * Proxies whose X-Forwarded-For is believed (addresses, CIDRs or loopback/linklocal/uniquelocal),
   * so that the client's own address is the one sign-in throttling counts; undefined: none.
   */
  trustProxy: string | undefined;
  /** Create a demo partner and staging key on an empty development database (`npm start`). */
  sandboxQuickstart: boolean;
  /**
   * The local playground (`npm run demo`): the quick start's partner gets production too, and an
   * empty catalog gets the demo vendors and products. This machine only, embedded database only.
   */
  demo: boolean;
  delivery: DeliverySettings;
  dispatch: DispatchSettings;
  /** When a photo or signature may finish a delivery (PROOF_FALLBACK_MAX_DISTANCE_M, PROOF_FALLBACK_POSITION_MAX_AGE_SECONDS). */
  proof: ProofSettings;
  /** Recipient messages: prices, the sender's poll, the SMS provider's callback secret. */
  messages: MessageSettings;
  payouts: PayoutSettings;
  /** Buyer refunds of prepaid sales (SALE_REFUND_INTERVAL_MS, SALE_REFUND_GRACE_SECONDS). */
  saleRefunds: SaleRefundSettings;
  webhooks: WebhookSettings;
  payments: PaymentSettings;
  /** Who sends money out (PAYOUT_PROVIDER, SANDBOX_TRANSFER_DELAY_SECONDS, PAYSTACK_*). */
  transfers: TransferSettings;
  /** How the dashboard's mail leaves (SMTP_URL, MAIL_FROM). */
  mail: MailSettings;
  /** How text messages (couriers' sign-in codes) leave (SMS_PROVIDER, HUBTEL_SMS_*, SMS_SENDER_ID). */
  sms: SmsSettings;
  /** Whether recipients' delivery codes also go by WhatsApp (WHATSAPP_PROVIDER, WHATSAPP_*). */
  whatsapp: WhatsAppSettings;
  /** Where uploaded files (proof-of-delivery photos) are kept (STORAGE, STORAGE_DIR, S3_*). */
  storage: StorageSettings;
  /** The courier app's Web Push (WEB_PUSH, VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT). */
  push: PushSettings;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function database(env: Env, dataDir: string, problems: string[]): DatabaseConfig {
  const url = env.DATABASE_URL;
  if (url === undefined || url === '')
    return { kind: 'pglite', dataDir: resolve(dataDir, 'pgdata') };
  if (url === 'memory:') return { kind: 'memory' };
  if (/^postgres(ql)?:\/\//.test(url)) {
    const schema = env.DATABASE_SCHEMA || undefined;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      problems.push('DATABASE_SCHEMA must be a lower-case SQL identifier');
    }
    return {
      kind: 'postgres',
      url,
      poolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 200, problems),
      schema,
    };
  }
  problems.push('DATABASE_URL must be unset (embedded), "memory:" or a postgres:// URL');
  return { kind: 'memory' };
}

function services(env: Env, problems: string[]): Set<ServiceName> {
  const raw = env.SERVICES;
  if (raw === undefined || raw.trim() === '') return new Set(ALL_SERVICES);
  const chosen = new Set<ServiceName>();
  for (const name of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if ((ALL_SERVICES as readonly string[]).includes(name)) chosen.add(name as ServiceName);
    else problems.push(`SERVICES: unknown service "${name}" (known: ${ALL_SERVICES.join(', ')})`);
  }
  return chosen;
}

function metricsPort(env: Env, port: number, problems: string[]): number | undefined {
  if (!env.METRICS_PORT) return undefined;
  const value = int(env, 'METRICS_PORT', 0, 1, 65535, problems);
  if (value === port) problems.push('METRICS_PORT must differ from PORT');
  return value || undefined;
}

/** Off unless asked for: TRACING=otlp, or the standard OTLP endpoint variables set (TRACING=off overrides them). */
function tracing(env: Env, problems: string[]): TracingSettings | undefined {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (oneOf(env, 'TRACING', ['off', 'otlp'], base || traces ? 'otlp' : 'off', problems) === 'off')
    return undefined;
  // As the OpenTelemetry specification says: the traces endpoint as given, the base one with /v1/traces.
  const endpoint =
    traces || (base ? `${base.replace(/\/+$/, '')}/v1/traces` : 'http://localhost:4318/v1/traces');
  if (!/^https?:\/\/[^/]/.test(endpoint))
    problems.push(
      'OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be http:// or https:// URLs',
    );
  return { serviceName: env.OTEL_SERVICE_NAME || 'partner-platform', endpoint };
}

function secretsKey(env: Env, problems: string[]): Buffer | undefined {
  const raw = env.SECRETS_KEY;
  if (raw === undefined || raw === '') return undefined;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32)
    problems.push('SECRETS_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  return key;
}

function trustProxy(env: Env, problems: string[]): string | undefined {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw) return undefined;
  const entries = raw.split(',').map((e) => e.trim());
  if (
    !entries.every((e) => /^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)$/.test(e))
  ) {
    problems.push(
      'TRUST_PROXY must be a comma-separated list of addresses, CIDRs, loopback, linklocal or uniquelocal',
    );
  }
  return entries.join(',');
}

/**
 * The playground's switches put sandbox money and a simulated courier behind production orders:
 * refused unless the public address is this machine, and the courier's unless no real money can
 * follow its deliveries (no real gateway collecting, no real transfers paying out).
 */
function playgroundProblems(c: Config, problems: string[]): void {
  const on = [
    c.demo && 'DEMO=on',
    c.payments.sandboxForProduction && 'SANDBOX_PAYMENTS_FOR_PRODUCTION=on',
    c.dispatch.sandboxForProduction && 'SANDBOX_COURIER_FOR_PRODUCTION=on',
  ].filter((s) => s !== false);
  if (on.length > 0 && !isLocalAddress(c.publicBaseUrl)) {
    problems.push(
      `${on.join(', ')}: a local playground's switches, only when PUBLIC_BASE_URL is this machine (localhost, 127.x or [::1]), not ${c.publicBaseUrl}`,
    );
  }
  if (
    c.dispatch.sandboxForProduction &&
    (c.payments.gateway !== 'sandbox' || c.transfers.provider !== 'sandbox')
  ) {
    problems.push(
      'SANDBOX_COURIER_FOR_PRODUCTION=on needs sandbox money: PAYMENT_GATEWAY and PAYOUT_PROVIDER must be sandbox',
    );
  }
  if (c.demo && c.database.kind === 'postgres')
    problems.push('DEMO=on (npm run demo) runs on the embedded database only: unset DATABASE_URL');
}

/** Reads and validates the whole configuration once; every problem is reported together. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const port = int(env, 'PORT', 8080, 0, 65535, problems);
  const dataDir = resolve(env.DATA_DIR || 'data');
  const adminToken = env.ADMIN_TOKEN || undefined;
  if (adminToken !== undefined && adminToken.length < 16)
    problems.push('ADMIN_TOKEN must be at least 16 characters');
  const authCacheTtlMs = int(env, 'AUTH_CACHE_TTL_MS', 2000, 0, 5000, problems);
  const demo = onOff(env, 'DEMO', problems);
  const publicBaseUrl = (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const config: Config = {
    port,
    host: env.HOST || '0.0.0.0',
    metricsPort: metricsPort(env, port, problems),
    publicBaseUrl,
    services: services(env, problems),
    dataDir,
    database: database(env, dataDir, problems),
    redisUrl: env.REDIS_URL || undefined,
    adminToken,
    secretsKey: secretsKey(env, problems),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info', problems),
    logFormat: oneOf(env, 'LOG_FORMAT', LOG_FORMATS, 'auto', problems),
    tracing: tracing(env, problems),
    rateLimits: {
      readsPerMinute: int(env, 'RATE_LIMIT_READS_PER_MINUTE', 600, 1, 1_000_000, problems),
      writesPerMinute: int(env, 'RATE_LIMIT_WRITES_PER_MINUTE', 120, 1, 1_000_000, problems),
    },
    authCacheTtlMs,
    nonceTtlSeconds: int(env, 'NONCE_TTL_SECONDS', 600, 600, 86_400, problems),
    clockSkewSeconds: 300,
    bodyLimitBytes: 1024 * 1024,
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 120_000, problems),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 500, 300_000, problems),
    maxConnections: int(env, 'MAX_CONNECTIONS', 10_000, 1, 1_000_000, problems),
    trustProxy: trustProxy(env, problems),
    // On by default for the embedded development database only (and always for the playground).
    sandboxQuickstart:
      demo || (env.SANDBOX_QUICKSTART ?? (env.DATABASE_URL ? 'off' : 'on')) === 'on',
    demo,
    delivery: deliverySettings(env, problems),
    dispatch: dispatchSettings(env, problems),
    proof: proofSettings(env, problems),
    messages: messageSettings(env, problems),
    payouts: payoutSettings(env, problems),
    saleRefunds: saleRefundSettings(env, problems),
    webhooks: webhookSettings(env, problems),
    payments: paymentSettings(env, problems),
    transfers: transferSettings(env, problems),
    mail: mailSettings(env, problems),
    sms: smsSettings(env, problems),
    whatsapp: whatsAppSettings(env, problems),
    storage: storageSettings(env, problems),
    push: pushSettings(env, publicBaseUrl, problems),
  };
  if (env.REDIS_URL && !/^rediss?:\/\//.test(env.REDIS_URL))
    problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  playgroundProblems(config, problems);
  // One line, however many problems: it is what a process manager's log shows of a failed start.
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return config;
}
