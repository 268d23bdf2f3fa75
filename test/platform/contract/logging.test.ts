import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, onRedis, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { orderBody } from '../../delivery/fixtures.ts';

let lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform({ socket: false, env: { LOG_LEVEL: 'info' }, logStream: sink });
});
afterAll(() => p.close());

describe('structured logs', () => {
  it('write one JSON line per request with its request id, and never a key, secret, signature or full phone', async () => {
    lines = [];
    const s = await createPartner(p);
    const created = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
      body: orderBody(),
    });
    const duplicate = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
      body: { ...orderBody(), item: 5 },
    });
    const badSig = await p.fetch(`${p.url}/api/v1/delivery/health`, {
      headers: {
        'x-api-key': s.apiKey,
        'x-timestamp': String(Math.floor(Date.now() / 1000)),
        'x-nonce': crypto.randomUUID(),
        'x-signature': 'f'.repeat(64),
      },
    });
    expect([created.status, duplicate.status, badSig.status]).toEqual([201, 400, 401]);

    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const requestLines = parsed.filter((l) => l.msg === 'request');
    expect(requestLines.length).toBeGreaterThanOrEqual(3);
    expect(requestLines.map((l) => l.reqId)).toContain(created.headers['x-request-id']);
    const text = lines.join('\n');
    for (const secret of [
      s.apiKey,
      s.signingSecret,
      'f'.repeat(64),
      '241234567',
      '0201234567',
      '201234567',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
  });
});

describe('an unreachable dependency', () => {
  it('is logged with its reason, and /readyz names it while the others answer ok', async () => {
    const healthy = await p.fetch(`${p.url}/readyz`);
    expect([healthy.status, await healthy.json()]).toEqual([
      200,
      { status: 'ok', checks: { database: 'ok', ...(onRedis ? { redis: 'ok' } : {}) } },
    ]);

    const own: string[] = [];
    const q = await startPlatform({
      socket: false,
      env: { LOG_LEVEL: 'info', REDIS_URL: 'redis://:hunter2-secret@127.0.0.1:1' },
      logStream: new Writable({
        write(chunk, _enc, done) {
          own.push(...String(chunk).split('\n').filter(Boolean));
          done();
        },
      }),
    });
    try {
      const warning = own.map((l) => JSON.parse(l)).find((l) => /redis unreachable/.test(l.msg));
      expect(warning?.err).toMatchObject({
        type: 'Error',
        code: 'ECONNREFUSED',
        message: 'connect ECONNREFUSED 127.0.0.1:1',
      });
      const res = await q.fetch(`${q.url}/readyz`);
      const body = await res.json();
      expect([res.status, body.status, body.checks.database]).toEqual([503, 'unavailable', 'ok']);
      expect(body.checks.redis).toMatch(/^failed: \S/);
      expect(JSON.stringify(body) + own.join('\n')).not.toContain('hunter2');
    } finally {
      await q.close();
    }
  });
});
