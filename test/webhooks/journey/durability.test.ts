import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  SECRETS_KEY,
  createPartner,
  onPostgres,
  startPlatform,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { adminCall, seedDataDir, spawnServer } from '../../helpers/process.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import { Receiver, until } from '../receiver.ts';

let rx: Receiver;
beforeAll(async () => {
  rx = await new Receiver().start();
});
afterAll(() => rx.close());

const admin = (url: string, path: string, body: unknown) =>
  adminCall(url, ADMIN_TOKEN, 'POST', path, body);

describe('webhook durability', () => {
  it('delivers an event committed just before a SIGKILL once the server is back', async () => {
    const dir = seedDataDir(mkdtempSync(join(tmpdir(), 'pp-hooks-')));
    try {
      // The first process never gets to send: it dies right after the commit.
      const env = {
        DATA_DIR: dir,
        ADMIN_TOKEN,
        SECRETS_KEY,
        WEBHOOK_POLL_MS: '20',
        WEBHOOK_LOCAL_DESTINATIONS: 'on',
      };
      const first = await spawnServer({ ...env, WEBHOOK_DISPATCHER: 'off' });
      const partner = await admin(first.url, '/partners', { name: 'Crash' });
      const app = await admin(first.url, `/partners/${partner.partner_id}/apps`, {
        name: 'App',
        webhook_url: `${rx.url}/after-crash`,
      });
      const key = await admin(first.url, `/apps/${app.app_id}/keys`, {
        environment: 'staging',
        scopes: ['*'],
      });
      const client = new PartnerClient({
        apiKey: key.api_key,
        signingSecret: key.signing_secret,
        baseUrl: first.url,
      });
      const created = await client.send<any>('POST', '/api/v1/delivery/orders.create', {
        body: orderBody(),
      });
      expect(created.status).toBe(201);
      first.child.kill('SIGKILL');
      await first.exited;
      expect(rx.on('/after-crash')).toHaveLength(0);

      const second = await spawnServer(env);
      try {
        // Generous: the restart recovers the embedded directory, slow on a loaded machine.
        await until(() => rx.on('/after-crash').length === 1, 40_000);
        expect(JSON.parse(rx.on('/after-crash')[0]!.body).data.order_id).toBe(
          created.body.data.order_details.order_id,
        );
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe.runIf(onPostgres)('two dispatchers on one PostgreSQL', () => {
  let a: TestPlatform;
  let b: TestPlatform;
  beforeAll(async () => {
    const env = {
      WEBHOOK_DISPATCHER: 'on',
      WEBHOOK_POLL_MS: '10',
      WEBHOOK_ENDPOINT_CONCURRENCY: '16',
      WEBHOOK_LOCAL_DESTINATIONS: 'on',
    };
    a = await startPlatform({ env });
    b = await startPlatform({ env, schema: a.schema });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('send each of 1000 events exactly once between them', async () => {
    const s = await createPartner(a, {
      rateLimits: { reads_per_minute: 1000, writes_per_minute: 1000 },
    });
    await a.admin('PATCH', `/apps/${s.appId}`, { webhook_url: `${rx.url}/shared-work` });
    for (let i = 0; i < 10; i++) {
      const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create_bulk', {
        body: { orders: Array.from({ length: 100 }, () => orderBody()) },
      });
      expect(res.body.summary.created).toBe(100);
    }
    await until(() => rx.on('/shared-work').length >= 1000, 60_000);
    await new Promise((r) => setTimeout(r, 300));
    const ids = rx.on('/shared-work').map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(1000);
    expect(new Set(ids).size).toBe(1000);
    const attempts = await a.app.platform.db.query<{ n: number }>(
      'select count(*)::int as n from webhook_attempts',
    );
    expect(attempts[0]!.n).toBe(1000);
  }, 120_000);
});
