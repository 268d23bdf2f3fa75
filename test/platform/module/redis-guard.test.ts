// tier: module
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisGuardStore } from '../../../src/platform/guard/redis.ts';
import type { AdmitInput } from '../../../src/platform/guard/types.ts';

// The shared store of replay and rate-limit state, on the Redis of the PostgreSQL pass.
const url = process.env.REDIS_URL;
const silent = { warn() {}, error() {}, info() {}, debug() {} } as never;

describe.skipIf(!url)('RedisGuardStore', () => {
  let store: RedisGuardStore;
  let redis: Redis;
  beforeAll(async () => {
    store = new RedisGuardStore(url!, 60_000, silent);
    await store.connect();
    redis = new Redis(url!);
  });
  afterAll(async () => {
    await store.close();
    redis.disconnect();
  });

  const freshKey = () => `key_${randomUUID().replaceAll('-', '')}`;
  const admit = (keyId: string, limit: number, access: AdmitInput['access'] = 'read') =>
    store.admit({ keyId, nonce: randomUUID(), access, limit });
  /** Redis's clock, which the store counts by. */
  const redisNow = async () => {
    const [seconds, micros] = await redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  };

  it('accepts a burst of the limit, counting down, then refuses until a slot frees', async () => {
    const keyId = freshKey();
    const answers = await Promise.all(Array.from({ length: 6 }, () => admit(keyId, 5)));
    expect(answers.map((a) => a.kind)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'limited']);
    expect(answers.slice(0, 5).map((a) => (a.kind === 'ok' ? a.remaining : -1))).toEqual([
      4, 3, 2, 1, 0,
    ]);
    const refused = answers[5]!;
    expect(refused.kind === 'limited' && refused.resetSeconds).toBeGreaterThanOrEqual(59);
    expect(refused.kind === 'limited' && refused.resetSeconds).toBeLessThanOrEqual(60);
    // Reads and writes are counted apart.
    expect((await admit(keyId, 5, 'write')).kind).toBe('ok');
  });

  it('refuses a nonce seen before for the same key, not for another key', async () => {
    const [a, b] = [freshKey(), freshKey()];
    const nonce = randomUUID();
    expect((await store.admit({ keyId: a, nonce, access: 'read', limit: 9 })).kind).toBe('ok');
    expect((await store.admit({ keyId: a, nonce, access: 'read', limit: 9 })).kind).toBe(
      'replayed',
    );
    expect((await store.admit({ keyId: b, nonce, access: 'read', limit: 9 })).kind).toBe('ok');
  });

  it('keeps one count per second, whatever the number of requests', async () => {
    const keyId = freshKey();
    await Promise.all(Array.from({ length: 200 }, () => admit(keyId, 1_000_000)));
    const window = `pp:{${keyId}}:w:read`;
    expect(await redis.type(window)).toBe('hash');
    const { n, o, ...seconds } = await redis.hgetall(window);
    expect(Object.keys(seconds).length).toBeLessThanOrEqual(3);
    const counts = Object.values(seconds).map((v) => Number(v.split(':')[0]));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(200);
    expect([Number(n), o]).toEqual([200, Object.keys(seconds).sort()[0]]);
    expect(await redis.pttl(window)).toBeGreaterThan(59_000);
  });

  it("counts a second's requests until 60 s after its last, then forgets them", async () => {
    const keyId = freshKey();
    const window = `pp:{${keyId}}:w:read`;
    const now = await redisNow();
    const second = (ms: number) => String(Math.floor(ms / 1000));
    // 3 requests whose last was 61 s ago (gone), 2 whose last was 58.5 s ago (still counted).
    await redis.hset(window, second(now - 61_500), `3:${now - 61_000}`);
    await redis.hset(window, second(now - 59_000), `2:${now - 58_500}`);
    await redis.hset(window, 'n', '5', 'o', second(now - 61_500));
    const answer = await admit(keyId, 3);
    expect(answer).toMatchObject({ kind: 'ok', remaining: 0 });
    // The next slot frees 60 s after the oldest counted second's last request: in 2 s or less.
    expect(answer.kind === 'ok' && answer.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(answer.kind === 'ok' && answer.resetSeconds).toBeLessThanOrEqual(2);
    const kept = await redis.hgetall(window);
    expect(Object.keys(kept)).not.toContain(second(now - 61_500));
    expect([kept.n, kept.o]).toEqual(['3', second(now - 59_000)]);
    expect((await admit(keyId, 3)).kind).toBe('limited');
  });

  it('starts over when every counted second has left the window', async () => {
    const keyId = freshKey();
    const window = `pp:{${keyId}}:w:write`;
    const now = await redisNow();
    const old = String(Math.floor((now - 70_000) / 1000));
    await redis.hset(window, old, `4:${now - 69_500}`, 'n', '4', 'o', old);
    const answer = await admit(keyId, 4, 'write');
    expect(answer).toMatchObject({ kind: 'ok', remaining: 3, resetSeconds: 60 });
    const { n, o, ...seconds } = await redis.hgetall(window);
    expect(n).toBe('1');
    expect(Object.keys(seconds)).toEqual([o]);
  });
});
