import { signRequest } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPartner,
  onPostgres,
  onRedis,
  startPlatform,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { mountTestOperations, TEST_PATHS } from '../../helpers/test-operations.ts';

const WRITE = TEST_PATHS.write;
const HEALTH = '/api/v1/delivery/health';
const mountWrite = mountTestOperations('write');

// Two instances share state only through PostgreSQL and Redis: this runs in the services pass.
describe.runIf(onPostgres && onRedis)('two instances on one PostgreSQL and one Redis', () => {
  let a: TestPlatform;
  let b: TestPlatform;
  beforeAll(async () => {
    a = await startPlatform({ beforeListen: mountWrite });
    b = await startPlatform({ schema: a.schema, beforeListen: mountWrite });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('lets exactly one of 50 concurrent requests reusing a nonce pass across both', async () => {
    const s = await createPartner(a, { scopes: ['delivery:read'] });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = crypto.randomUUID();
    const headers = {
      'x-api-key': s.apiKey,
      'x-timestamp': timestamp,
      'x-nonce': nonce,
      'x-signature': signRequest(s.signingSecret, { timestamp, nonce, method: 'GET', url: HEALTH }),
    };
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch((i % 2 === 0 ? a : b).url + HEALTH, { headers }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((st) => st === 200)).toHaveLength(1);
    expect(statuses.filter((st) => st === 409)).toHaveLength(49);
  });

  it('holds one write limit across both instances', async () => {
    const s = await createPartner(a, {
      rateLimits: { reads_per_minute: 600, writes_per_minute: 30 },
    });
    const statuses = await Promise.all(
      Array.from({ length: 35 }, (_, i) =>
        s.client
          .send('POST', WRITE, { body: {}, baseUrl: (i % 2 === 0 ? a : b).url })
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((st) => st === 201)).toHaveLength(30);
    expect(statuses.filter((st) => st === 429)).toHaveLength(5);
  });

  it('refuses a key revoked through one instance on the other within 5 seconds', async () => {
    const s = await createPartner(a, { scopes: ['delivery:read'] });
    expect((await s.client.send('GET', HEALTH, { baseUrl: b.url })).status).toBe(200);
    const revokedAt = Date.now();
    expect((await a.admin('DELETE', `/keys/${s.keyId}`)).status).toBe(204);
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 6000) {
      status = (await s.client.send('GET', HEALTH, { baseUrl: b.url })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(5000);
  });
});

describe('an unreachable Redis', () => {
  it('fails signed requests closed with 503 SERVICE_UNAVAILABLE and fails readiness', async () => {
    const p = await startPlatform({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const s = await createPartner(p, { scopes: ['delivery:read'] });
      const res = await s.client.send<{ code: string }>('GET', HEALTH);
      expect([res.status, res.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      expect((await p.fetch(`${p.url}/readyz`)).status).toBe(503);
      expect((await p.fetch(`${p.url}/healthz`)).status).toBe(200);
    } finally {
      await p.close();
    }
  });
});
