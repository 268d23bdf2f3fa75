/** Starts the real server (or another bench server) as a child process, provisions a partner key, and always stops it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { productionNodeOptions } from './node-options.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;

// Every child ever started; the exit hook below kills whatever is still alive.
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

// Settings the server reads from its environment: the bench decides them, not the caller's shell.
const SERVER_ENV = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_SCHEMA',
  'DATABASE_POOL_SIZE',
  'REDIS_URL',
  'SERVICES',
  'ADMIN_TOKEN',
  'SECRETS_KEY',
  'LOG_LEVEL',
  'PUBLIC_BASE_URL',
  'RATE_LIMIT_READS_PER_MINUTE',
  'RATE_LIMIT_WRITES_PER_MINUTE',
  'AUTH_CACHE_TTL_MS',
  'NONCE_TTL_SECONDS',
  'SHUTDOWN_TIMEOUT_MS',
  'WEBHOOK_DISPATCHER',
  'WEBHOOK_POLL_MS',
  'WEBHOOK_CONCURRENCY',
  'WEBHOOK_ENDPOINT_CONCURRENCY',
  'WEBHOOK_LOCAL_DESTINATIONS',
  'WEBHOOK_RETRY_SCHEDULE',
  'WEBHOOK_TIMEOUT_MS',
  'SANDBOX_COURIER_STEP_SECONDS',
  'PGAPPNAME',
  'SANDBOX_PAYMENTS_FOR_PRODUCTION',
  // The bare baseline's own settings (bench/baseline/server.ts).
  'BASELINE_DATABASE_URL',
  'BASELINE_SCHEMA',
  'BASELINE_POOL_SIZE',
  'BASELINE_SEED_ROWS',
];

export interface BenchServer extends ChildServer {
  adminToken: string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const CLK_TCK = 100; // USER_HZ on Linux

function readCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/** CPU time used by the whole machine (all cores, all processes) in milliseconds, from /proc/stat. */
export function machineCpuMs(): number | undefined {
  try {
    const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .map(Number);
    return ((user! + nice! + system! + irq! + softirq! + steal!) * 1000) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/** A server process the bench started: where it listens, its CPU time and output, and how to stop it. */
export interface ChildServer {
  url: string;
  port: number;
  pid: number;
  /** Server process CPU time (user + system) in milliseconds, from /proc; undefined off Linux. */
  cpuMs(): number | undefined;
  /** The last lines the server wrote, for error reports. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawns `node --import tsx <script>` from the repository root (one process, so its pid is the
 * server's) with PORT and HOST set and the server settings of the caller's shell removed, and
 * waits until `readyPath` answers 2xx.
 */
export async function launch(
  script: string,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
  readyPath = '/healthz',
): Promise<ChildServer> {
  const port = await freePort();
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SERVER_ENV) delete base[name];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...base, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let log = '';
  // The whole output, to trace an error the load met (a 5xx) to its stack; otherwise the last 8 KB.
  const file = process.env.BENCH_SERVER_LOG;
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-8000);
    if (file) appendFileSync(file, chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => children.delete(child));

  const url = `http://127.0.0.1:${port}`;
  const server: ChildServer = {
    url,
    port,
    pid: child.pid!,
    cpuMs: () => readCpuMs(child.pid!),
    output: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${script} exited during start (code ${child.exitCode ?? child.signalCode}):\n${log}`,
      );
    }
    try {
      const res = await fetch(`${url}${readyPath}`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return server;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(
        `${script} did not answer ${readyPath} within ${START_TIMEOUT_MS / 1000} s:\n${log}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Spawns the platform (`src/server.ts`) and waits for /healthz. */
export async function startServer(
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<BenchServer> {
  const adminToken = `bench-${randomBytes(16).toString('hex')}`;
  const server = await launch(
    'src/server.ts',
    {
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN: adminToken,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      // The wallet benches top up production wallets through the sandbox.
      SANDBOX_PAYMENTS_FOR_PRODUCTION: 'on',
      // The platform runs with production's Node.js options (the Dockerfile's).
      NODE_OPTIONS: productionNodeOptions(),
      ...env,
    },
    nodeArgs,
  );
  return { ...server, adminToken };
}

/** One operator API call (Bearer ADMIN_TOKEN); a non-2xx answer throws. */
export async function admin<T>(
  server: BenchServer,
  method: string,
  path: string,
  body: unknown,
): Promise<T> {
  const res = await fetch(`${server.url}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`operator API ${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

export interface BenchKey {
  partnerId: string;
  keyId: string;
  apiKey: string;
  signingSecret: string;
}

/**
 * The operator API caps a partner's own limits at 1,000,000 per minute (partners.ts), so that is
 * what the bench sets: far above what two cores can serve in a minute, so the limiter never
 * refuses, yet it still runs and counts every request, which is the cost being measured.
 */
export const BENCH_RATE_LIMIT = 1_000_000;

export async function createPartnerKey(server: BenchServer): Promise<BenchKey> {
  const partner = await admin<{ partner_id: string }>(server, 'POST', '/partners', {
    name: 'Bench Partner',
  });
  await admin(server, 'PATCH', `/partners/${partner.partner_id}`, {
    rate_limits: { reads_per_minute: BENCH_RATE_LIMIT, writes_per_minute: BENCH_RATE_LIMIT },
  });
  const app = await admin<{ app_id: string }>(
    server,
    'POST',
    `/partners/${partner.partner_id}/apps`,
    { name: 'Bench App' },
  );
  const key = await admin<{ key_id: string; api_key: string; signing_secret: string }>(
    server,
    'POST',
    `/apps/${app.app_id}/keys`,
    { environment: 'staging', scopes: ['*'] },
  );
  return {
    partnerId: partner.partner_id,
    keyId: key.key_id,
    apiKey: key.api_key,
    signingSecret: key.signing_secret,
  };
}
