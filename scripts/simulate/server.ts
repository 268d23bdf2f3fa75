import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { type AppOptions, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { SimClock } from './clock.ts';

/** The real server, in this process, on a loopback port, its clock the simulated one. */
export interface SimServer {
  app: FastifyInstance;
  url: string;
  adminToken: string;
  /** An admin API call (`/admin/v1` + path) with the admin token or an operator's. */
  admin<T = any>(method: string, path: string, body?: unknown, token?: string): Promise<T>;
  close(): Promise<void>;
}

/** A refused admin call: its status and what the server said. */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what}: ${status} ${JSON.stringify(body).slice(0, 300)}`);
  }
}

/** What the server is told: dispatch's round scaled to the clock; payouts paid the day they are earned. */
export function simEnv(speed: number, schema: string | undefined): Record<string, string> {
  const env = process.env;
  return {
    DATABASE_URL: env.DATABASE_URL ?? 'memory:',
    ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    ...(env.REDIS_URL ? { REDIS_URL: env.REDIS_URL } : {}),
    ADMIN_TOKEN: randomBytes(24).toString('base64url'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: env.SIM_LOG_LEVEL ?? 'error',
    // A round every two simulated seconds: an offer expires within that of its 45 s.
    DISPATCH_INTERVAL_MS: String(Math.max(25, Math.round(2000 / speed))),
    SANDBOX_COURIER_STEP_SECONDS: '0',
    // Multi-drop on (dispatch's default) unless the run says otherwise: `DISPATCH_BATCH_MAX_STOPS=1 npm run simulate` compares.
    ...(env.DISPATCH_BATCH_MAX_STOPS
      ? { DISPATCH_BATCH_MAX_STOPS: env.DISPATCH_BATCH_MAX_STOPS }
      : {}),
    WEBHOOK_DISPATCHER: 'off',
    // The day's sales are paid by the day's run (no hold); the scheduled run stays out of the way.
    PAYOUT_HOLD_HOURS: '0',
    PAYOUT_SAME_DAY_HOLD_HOURS: '0',
    PAYOUT_CUTOFF: '23:59',
    PAYOUT_INTERVAL_MS: '1000',
    SANDBOX_TRANSFER_DELAY_SECONDS: '0',
    // Prepaid sales are paid on the sandbox checkout (this machine only).
    SANDBOX_PAYMENTS_FOR_PRODUCTION: 'on',
    HOST: '127.0.0.1',
  };
}

const silent = () =>
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  });

/** Starts the server: embedded PGlite in memory by default, DATABASE_URL's PostgreSQL (own schema) when set. */
export async function startServer(
  clock: SimClock,
  speed: number,
  opts: { keep: boolean; port?: number; app?: AppOptions },
): Promise<SimServer> {
  const onPostgres = Boolean(process.env.DATABASE_URL?.startsWith('postgres'));
  const schema = onPostgres ? `sim_${randomBytes(5).toString('hex')}` : undefined;
  const port = opts.port ?? 0;
  const env = simEnv(speed, schema);
  // The port is known before the config, so that links the server builds (checkout, tracking) reach it.
  const chosen = port || (await freePort());
  const config = loadConfig({
    ...env,
    PORT: String(chosen),
    PUBLIC_BASE_URL: `http://127.0.0.1:${chosen}`,
  });
  const app = await buildApp(config, {
    ...opts.app,
    clock: clock.now,
    ...(env.LOG_LEVEL === 'silent' ? { logStream: silent() } : {}),
  });
  const url = await app.listen({ port: chosen, host: '127.0.0.1' });
  const adminToken = env.ADMIN_TOKEN!;
  return {
    app,
    url,
    adminToken,
    admin: (method, path, body, token = adminToken) => adminCall(url, method, path, body, token),
    async close() {
      await app.close();
      if (schema && !opts.keep) {
        const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      }
    },
  };
}

async function adminCall(
  url: string,
  method: string,
  path: string,
  body: unknown,
  token: string,
): Promise<any> {
  const res = await fetch(`${url}/admin/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (res.status >= 300) throw new AdminError(res.status, parsed, `${method} ${path}`);
  return parsed;
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
