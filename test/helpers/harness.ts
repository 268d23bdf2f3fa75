import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { PartnerClient } from '@partner-platform/sdk';
import { buildApp, type AppOptions } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { isLocalAddress } from '../../src/platform/http/loopback.ts';
import { FakeTransfers } from '../fakes/transfers.ts';
import { FakeDns } from './dns.ts';
import { injectFetch } from './inject-fetch.ts';
import { freePort } from './process.ts';
import { lendEngine, noteFresh, returnSchema, takeSchema } from './database-pool.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

/** True when this run targets the machine's PostgreSQL (the second CI pass). */
export const onPostgres = Boolean(process.env.DATABASE_URL?.startsWith('postgres'));
export const onRedis = Boolean(process.env.REDIS_URL);
/**
 * For tests whose servers run on embedded databases of their own whatever the pass (a first start,
 * the playground, kill -9 of an embedded server): the PostgreSQL pass would repeat them unchanged,
 * so they run in the embedded pass (what `npm test` on a fresh clone is), as the tests that need
 * PostgreSQL run in its pass only.
 */
export const embeddedPass = !onPostgres;
/**
 * For tests that any pass would run the same way (processes given their whole environment, the
 * tests of a client or a document): the embedded pass on `npm test`, the PostgreSQL pass when
 * `.ci/run` runs both side by side (SINGLE_PASS_TESTS=postgres), since the embedded pass has more of
 * its own (the tests above).
 */
export const singlePass = process.env.SINGLE_PASS_TESTS === 'postgres' ? onPostgres : !onPostgres;

let template: Promise<Blob | undefined> | undefined;
function pgliteTemplate(): Promise<Blob | undefined> {
  template ??= (async () => {
    const file = inject('pgliteTemplate');
    return file ? new Blob([await readFile(file)]) : undefined;
  })();
  return template;
}

export interface StartOptions extends AppOptions {
  env?: Record<string, string>;
  /** Several instances share one database by passing the first one's schema. */
  schema?: string;
  /** The address to listen on (default loopback); `0.0.0.0` lets a test call from the machine's network address. */
  listenHost?: string;
  /** Run before listening: tests may mount extra routes on the real pipeline. */
  beforeListen?: (app: FastifyInstance) => void;
  /**
   * `false`: no port at all. `admin()`, `fetch` and the SDK clients of `createPartner` reach the
   * app in process (`injectFetch`); `url` still names the address the app's links are built on.
   */
  socket?: boolean;
}

export interface TestPlatform {
  app: FastifyInstance;
  url: string;
  /** Reaches this app: through its port, or in process when it was started with `socket: false`. */
  fetch: typeof fetch;
  schema: string | undefined;
  admin<T = any>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; body: T; headers: Headers }>;
  close(): Promise<void>;
}

/** A real server on a loopback port: in-memory PGlite by default, PostgreSQL + Redis when configured. */
export async function startPlatform(
  opts: StartOptions = {},
  retry: { tries: number; ownsSchema: boolean; pooled?: boolean } = {
    tries: 0,
    ownsSchema: false,
  },
): Promise<TestPlatform> {
  // A test may run its app on an embedded database on the PostgreSQL pass too.
  const url = opts.env?.DATABASE_URL;
  const usesPostgres = onPostgres && (url === undefined || url.startsWith('postgres'));
  // A schema of the pool is already migrated; a new one is migrated by the app's start.
  const pooled = usesPostgres && opts.schema === undefined ? takeSchema() : undefined;
  const schema = usesPostgres
    ? (opts.schema ??
      pooled ??
      `${inject('schemaPrefix') ?? 't_'}${randomBytes(6).toString('hex')}`)
    : undefined;
  // A known port, so that links the server builds (tracking, checkout, callbacks) reach it.
  const port = await freePort();
  const config = loadConfig({
    DATABASE_URL: process.env.DATABASE_URL ?? 'memory:',
    ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ADMIN_TOKEN,
    SECRETS_KEY,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Tests drive the sandbox courier themselves.
    SANDBOX_COURIER_STEP_SECONDS: '0',
    DISPATCH_INTERVAL_MS: '0',
    REFUND_INTERVAL_MS: '0',
    PAYOUT_INTERVAL_MS: '0',
    SALE_REFUND_INTERVAL_MS: '0',
    // Webhook tests turn the dispatcher on (and WEBHOOK_LOCAL_DESTINATIONS for local receivers);
    // nothing else sends anywhere.
    WEBHOOK_DISPATCHER: 'off',
    // Production money in tests goes through the sandbox; the refusal without it has its own test.
    // The switch is this machine's only: a test serving a public PUBLIC_BASE_URL goes without it.
    ...(opts.env?.PUBLIC_BASE_URL && !isLocalAddress(opts.env.PUBLIC_BASE_URL)
      ? // A public address needs VAPID keys for Web Push: tests of other things go without push.
        { WEB_PUSH: 'off' }
      : { SANDBOX_PAYMENTS_FOR_PRODUCTION: 'on' }),
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    ...opts.env,
  });
  const template = opts.dbTemplate ?? (await pgliteTemplate());
  // An in-memory database from the tests' own template runs on an engine this worker lends.
  const dbEngine =
    config.database.kind === 'memory' && !opts.dbTemplate && template
      ? await lendEngine(template)
      : undefined;
  const app = await buildApp(config, {
    ...opts,
    dbTemplate: template,
    ...(dbEngine ? { dbEngine } : {}),
    resolveHost: opts.resolveHost ?? new FakeDns().resolve,
    // Payouts go to the transfer provider's fake unless a test brings its own.
    transfers: opts.transfers ?? new FakeTransfers(),
  }).catch(async (err: unknown) => {
    // A start that failed before its database opened never gave the engine back.
    await dbEngine?.release();
    throw err;
  });
  opts.beforeListen?.(app);
  const ownsSchema = schema !== undefined && (opts.schema === undefined || retry.ownsSchema);
  const newSchema = ownsSchema && pooled === undefined && !retry.pooled;
  let address = config.publicBaseUrl;
  try {
    // Ready as listening makes it: the app's workers start on ready, not on a first request.
    if (opts.socket === false) await app.ready();
    else address = await app.listen({ port, host: opts.listenHost ?? '127.0.0.1' });
  } catch (err) {
    // Another process took the free port while the app was built (two passes share the machine):
    // build again on a new one, the links the server makes naming it.
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || retry.tries >= 5) throw err;
    await app.close();
    return startPlatform(
      { ...opts, ...(schema ? { schema } : {}) },
      { tries: retry.tries + 1, ownsSchema, pooled: pooled !== undefined || retry.pooled },
    );
  }
  if (newSchema) await noteFresh(schema);
  // A schema named to the test (shared with another instance, a process or a client of its own)
  // is dropped at the end, never handed to the next app.
  let shared = false;
  const reach = opts.socket === false ? injectFetch(app) : fetch;
  return {
    app,
    url: address,
    fetch: reach,
    get schema() {
      shared = true;
      return schema;
    },
    async admin(method, path, body, token = ADMIN_TOKEN) {
      const res = await reach(`${address}/admin/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return {
        status: res.status,
        body: text ? JSON.parse(text) : undefined,
        headers: res.headers,
      };
    },
    async close() {
      await app.close();
      if (ownsSchema) await returnSchema(schema, shared);
    },
  };
}

export interface PartnerSetup {
  partnerId: string;
  appId: string;
  keyId: string;
  apiKey: string;
  signingSecret: string;
  client: PartnerClient;
  /** The app's webhook signing secret, as the app's creation answered it once. */
  webhookSecret?: string;
}

export interface PartnerOptions {
  environment?: 'staging' | 'production';
  scopes?: string[];
  rateLimits?: { reads_per_minute: number; writes_per_minute: number };
  bearer?: boolean;
  /** The client's clock for signing: a test that moves the server's clock signs on the same one. */
  now?: () => number;
  /** The app's webhook URL (none by default: its events go nowhere). */
  webhookUrl?: string;
}

async function ok<T>(res: Promise<{ status: number; body: T }>): Promise<T> {
  const r = await res;
  if (r.status >= 300) throw new Error(`admin call failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A partner with one app and one key, and an SDK client signing with that key. */
export async function createPartner(
  p: TestPlatform,
  opts: PartnerOptions = {},
): Promise<PartnerSetup> {
  const environment = opts.environment ?? 'staging';
  const partner = await ok(p.admin('POST', '/partners', { name: 'Test Partner' }));
  if (environment === 'production' || opts.rateLimits) {
    await ok(
      p.admin('PATCH', `/partners/${partner.partner_id}`, {
        ...(environment === 'production' ? { production_active: true } : {}),
        ...(opts.rateLimits ? { rate_limits: opts.rateLimits } : {}),
      }),
    );
  }
  const app = await ok(
    p.admin('POST', `/partners/${partner.partner_id}/apps`, {
      name: 'Test App',
      ...(opts.webhookUrl ? { webhook_url: opts.webhookUrl } : {}),
    }),
  );
  const setup = await addKey(
    p,
    { partnerId: partner.partner_id, appId: app.app_id },
    { ...opts, environment },
  );
  return opts.webhookUrl ? { ...setup, webhookSecret: app.webhook_secret } : setup;
}

/** Another key on an existing app. */
export async function addKey(
  p: TestPlatform,
  owner: { partnerId: string; appId: string },
  opts: PartnerOptions = {},
): Promise<PartnerSetup> {
  const key = await ok(
    p.admin('POST', `/apps/${owner.appId}/keys`, {
      environment: opts.environment ?? 'staging',
      scopes: opts.scopes ?? ['*'],
    }),
  );
  return {
    ...owner,
    keyId: key.key_id,
    apiKey: key.api_key,
    signingSecret: key.signing_secret,
    client: new PartnerClient({
      apiKey: key.api_key,
      signingSecret: key.signing_secret,
      baseUrl: p.url,
      fetch: p.fetch,
      bearer: opts.bearer,
      ...(opts.now ? { now: opts.now } : {}),
    }),
  };
}

/** This machine's first non-loopback IPv4 address: a peer that is not loopback, for pages kept to this machine. */
export function networkAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((i) => i?.family === 'IPv4' && !i.internal);
  if (!found) throw new Error('this machine has no non-loopback IPv4 address to call from');
  return found.address;
}

/** A single `count(*)` straight from the database, to check what a request did or did not write. */
export async function countRows(
  p: TestPlatform,
  sql: string,
  params: unknown[] = [],
): Promise<number> {
  const rows = await p.app.platform.db.query<{ n: number }>(sql, params);
  return rows[0]!.n;
}

/** Two instances on one PostgreSQL schema (and one Redis), for the enclosing describe block. */
export function useTwoInstances(opts: StartOptions = {}): {
  readonly a: TestPlatform;
  readonly b: TestPlatform;
} {
  let a: TestPlatform | undefined;
  let b: TestPlatform | undefined;
  beforeAll(async () => {
    a = await startPlatform(opts);
    b = await startPlatform({ ...opts, schema: a.schema });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });
  return {
    get a() {
      return a!;
    },
    get b() {
      return b!;
    },
  };
}
