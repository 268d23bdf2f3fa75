import { PartnerClient } from '@partner-platform/sdk';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, SECRETS_KEY } from '../helpers/harness.ts';
import { spawnServer } from '../helpers/process.ts';
import { orderBody } from '../delivery/fixtures.ts';

async function admin(url: string, path: string, body: unknown) {
  const res = await fetch(`${url}/admin/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as any;
}

describe('graceful shutdown', () => {
  it('lets an in-flight request finish on SIGTERM, then exits 0', async () => {
    const server = await spawnServer({ DATABASE_URL: 'memory:', ADMIN_TOKEN, SECRETS_KEY });
    try {
      const partner = await admin(server.url, '/partners', { name: 'Shutdown' });
      const app = await admin(server.url, `/partners/${partner.partner_id}/apps`, { name: 'App' });
      const key = await admin(server.url, `/apps/${app.app_id}/keys`, { environment: 'staging', scopes: ['*'] });
      const client = new PartnerClient({ apiKey: key.api_key, signingSecret: key.signing_secret, baseUrl: server.url });
      // A bulk of 100 orders takes a few hundred milliseconds: long enough to be in flight.
      const inFlight = client.send<any>('POST', '/api/v1/delivery/orders.create_bulk', { body: { orders: Array.from({ length: 100 }, () => orderBody()) } });
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
