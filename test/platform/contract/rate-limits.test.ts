import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { mountTestOperations, TEST_PATHS } from '../../helpers/test-operations.ts';

const WRITE = TEST_PATHS.write;
const READ = '/api/v1/delivery/health';

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform({ socket: false, beforeListen: mountTestOperations('write') });
});
afterAll(() => p.close());

describe('rate limits', () => {
  it('accepts a burst of exactly the default 120 writes, then answers 429 with headers; reads keep their budget', async () => {
    const { client } = await createPartner(p);
    const results = await Promise.all(
      Array.from({ length: 125 }, () => client.send('POST', WRITE, { body: {} })),
    );
    const accepted = results.filter((r) => r.status === 201);
    const limited = results.filter((r) => r.status === 429);
    expect(accepted).toHaveLength(120);
    expect(limited).toHaveLength(5);
    const last = limited[0]!;
    expect((last.body as { code: string }).code).toBe('RATE_LIMITED');
    expect(last.headers['ratelimit-limit']).toBe('120');
    expect(last.headers['ratelimit-remaining']).toBe('0');
    expect(Number(last.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(last.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(Number(last.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);

    const read = await client.send('GET', READ);
    expect(read.status).toBe(200);
    expect(read.headers['ratelimit-limit']).toBe('600');
    expect(read.headers['ratelimit-remaining']).toBe('599');
  });

  it('counts down RateLimit-Remaining on every authenticated answer, errors after the check included', async () => {
    const { client } = await createPartner(p);
    const first = await client.send('POST', WRITE, { body: {} });
    expect(first.headers['ratelimit-remaining']).toBe('119');
    const invalid = await client.send('POST', WRITE, { body: { unexpected: 1 } });
    expect(invalid.status).toBe(400);
    expect(invalid.headers['ratelimit-remaining']).toBe('118');
  });

  it("applies a partner's own limits instead of the defaults, per key", async () => {
    const s = await createPartner(p, { rateLimits: { reads_per_minute: 3, writes_per_minute: 2 } });
    const writes = await Promise.all(
      Array.from({ length: 4 }, () => s.client.send('POST', WRITE, { body: {} })),
    );
    expect(writes.map((r) => r.status).sort()).toEqual([201, 201, 429, 429]);
    const reads = await Promise.all(Array.from({ length: 5 }, () => s.client.send('GET', READ)));
    expect(reads.filter((r) => r.status === 200)).toHaveLength(3);
  });

  it('takes a limit change into effect without a restart', async () => {
    const s = await createPartner(p, { rateLimits: { reads_per_minute: 1, writes_per_minute: 1 } });
    expect((await s.client.send('GET', READ)).status).toBe(200);
    expect((await s.client.send('GET', READ)).status).toBe(429);
    await p.admin('PATCH', `/partners/${s.partnerId}`, {
      rate_limits: { reads_per_minute: 5, writes_per_minute: 5 },
    });
    expect((await s.client.send('GET', READ)).status).toBe(200);
    await p.admin('PATCH', `/partners/${s.partnerId}`, { rate_limits: null });
    expect((await s.client.send('GET', READ)).headers['ratelimit-limit']).toBe('600');
  });
});
