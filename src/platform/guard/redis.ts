import { Redis } from 'ioredis';
import { batchingBy } from '../concurrency.ts';
import type { Logger } from '../logger.ts';
import type { AdmitInput, AdmitResult, GuardStore } from './types.ts';
import { RATE_WINDOW_MS } from './types.ts';

// The admissions of one API key that arrive together, in one script: one round trip and one
// script run for the lot, atomic across instances. Per admission: the nonce is recorded (a replay
// answers -1), then the request is counted in its access kind's rolling window (0: limited, 1:
// accepted), in arrival order. Redis's own clock is the time source so that instances with
// drifting clocks still share one window. KEYS: the nonce keys, then the two window keys (read,
// write). ARGV: nonce TTL, window, then per admission its window (1 or 2) and limit.
//
// A window is a hash of per-second tallies (field: the second; value: "count:last request's ms")
// beside its running total (`n`) and its oldest second (`o`), not a log of every request: the
// work per admission stays the same whatever the limit and the rate (a sorted set of up to
// 1,000,000 members a minute cost Redis more than the rest of the request). A second's requests
// count until 60 s after the last of them, so a slot frees up to a second later than a log would
// free it, never earlier: no rolling 60 s holds more than the limit, and RateLimit-Reset says when
// the next slot frees.
const ADMIT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
local second = math.floor(now / 1000)
local n = #KEYS - 2
local state = {}
local out = {}
-- A window's running total, after forgetting the seconds whose last request left it.
local function open(log)
  local got = redis.call('HMGET', log, 'n', 'o', second)
  local total, oldest, frees, forgot = tonumber(got[1]) or 0, tonumber(got[2]), nil, false
  while oldest ~= nil and oldest <= second do
    local tally = redis.call('HGET', log, oldest)
    if tally then
      local c, last = string.match(tally, '(%d+):(%d+)')
      if tonumber(last) + window > now then frees = tonumber(last); break end
      total = total - tonumber(c)
      forgot = true
      redis.call('HDEL', log, oldest)
    end
    oldest = oldest + 1
  end
  if frees == nil then oldest = nil end
  local mine = got[3] and tonumber(string.match(got[3], '(%d+):')) or 0
  return { total = total, oldest = oldest, frees = frees, mine = mine, added = 0, forgot = forgot }
end
for i = 1, n do
  local w = tonumber(ARGV[i * 2 + 1])
  local limit = tonumber(ARGV[i * 2 + 2])
  if redis.call('SET', KEYS[i], '1', 'NX', 'PX', ARGV[1]) == false then
    out[#out + 1] = -1; out[#out + 1] = 0; out[#out + 1] = 0
  else
    state[w] = state[w] or open(KEYS[n + w])
    local s = state[w]
    if s.total >= limit then
      out[#out + 1] = 0; out[#out + 1] = 0
    else
      s.total = s.total + 1
      s.added = s.added + 1
      s.oldest = s.oldest or second
      -- When the oldest second counted is this one, its last request is this one.
      if s.oldest == second then s.frees = now end
      out[#out + 1] = 1; out[#out + 1] = limit - s.total
    end
    out[#out + 1] = s.frees + window - now
  end
end
for w, s in pairs(state) do
  if s.added > 0 then
    redis.call('HSET', KEYS[n + w], second, (s.mine + s.added) .. ':' .. now, 'n', s.total, 'o', s.oldest)
    redis.call('PEXPIRE', KEYS[n + w], window)
  elseif s.forgot and s.oldest == nil then
    redis.call('DEL', KEYS[n + w])
  elseif s.forgot then
    -- Only refusals: the window changed only if seconds were forgotten.
    redis.call('HSET', KEYS[n + w], 'n', s.total, 'o', s.oldest)
  end
end
return out
`;

// Admissions waiting for one script run: enough to empty a busy key's backlog in few round trips,
// few enough that one run never holds Redis for long.
const ADMIT_BATCH = 64;

interface GuardRedis extends Redis {
  ppAdmit(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<number[]>;
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
    this.redis.defineCommand('ppAdmit', { lua: ADMIT_SCRIPT });
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

  /** Admissions of one key share a script run; the hash tag keeps all of a key's keys in one cluster slot. */
  readonly admit: (input: AdmitInput) => Promise<AdmitResult> = batchingBy(
    (input) => input.keyId,
    (batch) => this.admitTogether(batch),
    ADMIT_BATCH,
  );

  private async admitTogether(batch: AdmitInput[]): Promise<AdmitResult[]> {
    const { keyId } = batch[0]!;
    const keys = batch.map((a) => `pp:{${keyId}}:n:${a.nonce}`);
    // Named apart from the sorted sets earlier versions kept, which a rolling deploy may still hold.
    keys.push(`pp:{${keyId}}:w:read`, `pp:{${keyId}}:w:write`);
    const args: Array<string | number> = [this.nonceTtlMs, RATE_WINDOW_MS];
    for (const a of batch) args.push(a.access === 'read' ? 1 : 2, a.limit);
    const reply = await this.redis.ppAdmit(keys.length, ...keys, ...args);
    return batch.map(({ limit }, i) => {
      const kind = reply[i * 3];
      if (kind === -1) return { kind: 'replayed' };
      const resetSeconds = Math.max(1, Math.ceil(reply[i * 3 + 2]! / 1000));
      if (kind === 0) return { kind: 'limited', limit, resetSeconds };
      return { kind: 'ok', limit, remaining: reply[i * 3 + 1]!, resetSeconds };
    });
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
