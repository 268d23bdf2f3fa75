import { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';
import type { AdmitInput, AdmitResult, GuardStore } from './types.ts';
import { RATE_WINDOW_MS } from './types.ts';

// Nonce and rolling window in one script: one round trip, atomic across instances. Redis's own
// clock is the time source so that instances with drifting clocks still share one window.
const ADMIT_SCRIPT = `
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) == false then return {-1, 0, 0} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[2])
if count >= limit then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  return {0, 0, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[2], now, ARGV[4])
redis.call('PEXPIRE', KEYS[2], window)
local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
return {1, limit - count - 1, tonumber(oldest[2]) + window - now}
`;

type AdmitReply = [number, number, number];

interface GuardRedis extends Redis {
  ppAdmit(nonceKey: string, logKey: string, ttlMs: number, windowMs: number, limit: number, member: string): Promise<AdmitReply>;
}

/** Replay and rate-limit state shared by every instance through Redis. Fails closed when Redis is away. */
export class RedisGuardStore implements GuardStore {
  private readonly redis: GuardRedis;
  private lastErrorLog = 0;

  constructor(
    url: string,
    private readonly nonceTtlMs: number,
    log: Logger,
  ) {
    this.redis = new Redis(url, {
      // Never queue behind a dead connection: answer 503 at once and keep reconnecting.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 1000,
      retryStrategy: (times) => Math.min(100 * times, 2000),
      lazyConnect: true,
      // Admissions of concurrent requests leave in one write per event-loop turn, not one each.
      enableAutoPipelining: true,
    }) as GuardRedis;
    this.redis.defineCommand('ppAdmit', { numberOfKeys: 2, lua: ADMIT_SCRIPT });
    this.redis.on('error', (err: Error) => {
      const now = Date.now();
      if (now - this.lastErrorLog > 10_000) {
        this.lastErrorLog = now;
        log.warn({ err }, 'redis unreachable; signed requests answer 503 until it returns');
      }
    });
  }

  /** Connects, waiting a bounded time: a Redis that is down at start must not keep the server from starting. */
  async connect(timeoutMs = 3000): Promise<void> {
    const connected = this.redis.connect().then(
      () => true,
      () => false,
    );
    const timedOut = new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs).unref());
    await Promise.race([connected, timedOut]);
  }

  async admit({ keyId, nonce, access, limit }: AdmitInput): Promise<AdmitResult> {
    // The hash tag keeps both keys of one API key in one cluster slot.
    const [kind, remaining, resetMs] = await this.redis.ppAdmit(
      `pp:{${keyId}}:n:${nonce}`,
      `pp:{${keyId}}:rl:${access}`,
      this.nonceTtlMs,
      RATE_WINDOW_MS,
      limit,
      nonce,
    );
    if (kind === -1) return { kind: 'replayed' };
    const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
    if (kind === 0) return { kind: 'limited', limit, resetSeconds };
    return { kind: 'ok', limit, remaining, resetSeconds };
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
