import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, type ClientRequest, type IncomingHttpHeaders, request } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient } from '@partner-platform/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, embeddedPass, SECRETS_KEY } from '../../helpers/harness.ts';
import { seedDataDir, spawnServer } from '../../helpers/process.ts';
import { orderBody } from '../../delivery/fixtures.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A server on an embedded database of its own, already migrated (shutdown is the subject, not a first start). */
function start() {
  const dir = seedDataDir(mkdtempSync(join(tmpdir(), 'pp-shutdown-')));
  dirs.push(dir);
  return spawnServer({ DATA_DIR: dir, ADMIN_TOKEN, SECRETS_KEY });
}

async function admin(url: string, path: string, body: unknown) {
  const res = await fetch(`${url}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as any;
}

describe.runIf(embeddedPass)('graceful shutdown', () => {
  it('lets an in-flight request finish on SIGTERM, then exits 0', async () => {
    const server = await start();
    try {
      const partner = await admin(server.url, '/partners', { name: 'Shutdown' });
      const app = await admin(server.url, `/partners/${partner.partner_id}/apps`, { name: 'App' });
      const key = await admin(server.url, `/apps/${app.app_id}/keys`, {
        environment: 'staging',
        scopes: ['*'],
      });
      const client = new PartnerClient({
        apiKey: key.api_key,
        signingSecret: key.signing_secret,
        baseUrl: server.url,
      });
      // A bulk of 100 orders takes a few hundred milliseconds: long enough to be in flight.
      const inFlight = client.send<any>('POST', '/api/v1/delivery/orders.create_bulk', {
        body: { orders: Array.from({ length: 100 }, () => orderBody()) },
      });
      await new Promise((r) => setTimeout(r, 60));
      server.child.kill('SIGTERM');
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(res.body.summary.created).toBe(100);
      expect(await server.exited).toBe(0);
      await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 60_000);
});

describe.runIf(embeddedPass)('shutdown with keep-alive clients', () => {
  it('closes idle keep-alive connections at once and answers in-flight requests with Connection: close, so it exits promptly', async () => {
    // In memory: the time to exit is the connections' alone (closing a data directory adds 1-2 s
    // of writes on a loaded machine).
    const server = await spawnServer({ DATABASE_URL: 'memory:', ADMIN_TOKEN, SECRETS_KEY });
    const { port } = new URL(server.url);
    const [idleAgent, busyAgent] = [new Agent({ keepAlive: true }), new Agent({ keepAlive: true })];
    try {
      // A client that keeps its connection open, idle, after an answer.
      const first = await call(idleAgent, port, 'GET', '/healthz');
      expect(first.headers.connection).toBe('keep-alive');
      const idleClosed = new Promise<void>((resolve) =>
        first.socket.once('close', () => resolve()),
      );
      // A request in flight across the signal, on a keep-alive connection of its own: the server has
      // taken it (its 100 Continue says so), and its body is sent only after SIGTERM.
      const body = JSON.stringify({ name: 'In flight' });
      const headers = {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        expect: '100-continue',
      };
      const inFlight = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/admin/v1/partners',
        agent: busyAgent,
        headers,
      });
      const answered = answer(inFlight);
      await new Promise((resolve) => inFlight.once('continue', resolve));

      const signalled = Date.now();
      server.child.kill('SIGTERM');
      await idleClosed;
      inFlight.end(body);
      const res = await answered;
      expect(res.status).toBe(201);
      expect(res.headers.connection).toBe('close');
      expect(await server.exited).toBe(0);
      // Waiting for the keep-alive timeout (5 s) took over 6 s before.
      expect(Date.now() - signalled).toBeLessThan(2500);
    } finally {
      idleAgent.destroy();
      busyAgent.destroy();
      server.child.kill('SIGKILL');
    }
  }, 60_000);
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  socket: Socket;
}

function answer(req: ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res) => {
      res.resume();
      res.once('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, socket: req.socket! }),
      );
    });
  });
}

function call(agent: Agent, port: string, method: string, path: string): Promise<Answer> {
  const req = request({ host: '127.0.0.1', port, method, path, agent });
  const answered = answer(req);
  req.end();
  return answered;
}
