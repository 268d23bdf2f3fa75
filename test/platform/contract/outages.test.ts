import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPartner,
  onPostgres,
  onRedis,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { TcpProxy } from '../../helpers/tcp-proxy.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import { until } from '../../webhooks/receiver.ts';

// PostgreSQL and Redis reached through proxies the test can cut; runs in the services pass.
describe.runIf(onPostgres && onRedis)('outages of PostgreSQL and Redis', () => {
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let p: TestPlatform;
  let s: PartnerSetup;
  beforeAll(async () => {
    const pgUrl = new URL(process.env.DATABASE_URL!);
    const redisUrl = new URL(process.env.REDIS_URL!);
    pgProxy = await new TcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432)).start();
    redisProxy = await new TcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379)).start();
    pgUrl.port = String(pgProxy.port);
    redisUrl.port = String(redisProxy.port);
    p = await startPlatform({
      socket: false,
      env: {
        DATABASE_URL: pgUrl.toString(),
        REDIS_URL: redisUrl.toString(),
        AUTH_CACHE_TTL_MS: '0',
      },
    });
    s = await createPartner(p);
  });
  afterAll(async () => {
    await p?.close();
    await pgProxy?.close();
    await redisProxy?.close();
  });

  const create = () =>
    s.client.send<any>('POST', '/api/v1/delivery/orders.create', { body: orderBody() });

  it('answers 503 SERVICE_UNAVAILABLE while PostgreSQL is away, stays up, and recovers by itself', async () => {
    expect((await create()).status).toBe(201);
    await pgProxy.cut();
    const during = await create();
    expect([during.status, during.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(JSON.stringify(during.body)).not.toMatch(/ECONNREFUSED|postgres|select|insert/i);
    const ready = await p.fetch(`${p.url}/readyz`);
    const body = await ready.json();
    expect([ready.status, body.status, body.checks.redis]).toEqual([503, 'unavailable', 'ok']);
    expect(body.checks.database).toMatch(/^failed: \S/);
    expect((await p.fetch(`${p.url}/healthz`)).status).toBe(200);
    await pgProxy.restore();
    await until(async () => (await create()).status === 201, 15_000);
    expect((await p.fetch(`${p.url}/readyz`)).status).toBe(200);
  });

  it('fails closed with 503 while Redis is away and recovers by itself', async () => {
    await redisProxy.cut();
    const during = await s.client.send<any>('GET', '/api/v1/delivery/health');
    expect([during.status, during.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    await redisProxy.restore();
    await until(
      async () => (await s.client.send('GET', '/api/v1/delivery/health')).status === 200,
      15_000,
    );
  });
});
