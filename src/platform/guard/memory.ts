import { fingerprinter, NonceTable } from './nonce-table.ts';
import type { AdmitInput, AdmitResult, GuardStore } from './types.ts';
import { RATE_WINDOW_MS } from './types.ts';

/** Accepted request times of one key and access kind, oldest first. */
class SlidingLog {
  private times: number[] = [];
  private start = 0;

  count(now: number): number {
    const floor = now - RATE_WINDOW_MS;
    while (this.start < this.times.length && this.times[this.start]! <= floor) this.start++;
    if (this.start > 256 && this.start * 2 > this.times.length) {
      this.times = this.times.slice(this.start);
      this.start = 0;
    }
    return this.times.length - this.start;
  }

  oldest(): number | undefined {
    return this.times[this.start];
  }

  add(now: number): void {
    this.times.push(now);
  }
}

function secondsUntil(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** In-process replay and rate-limit state: correct for one instance only. */
export class MemoryGuardStore implements GuardStore {
  // Two generations of nonces: every nonce is remembered for at least one full TTL.
  private current = new NonceTable();
  private previous = new NonceTable();
  private readonly fingerprint = fingerprinter();
  private generationStart: number;
  private readonly logs = new Map<string, SlidingLog>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly nonceTtlMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.generationStart = clock();
    this.sweeper = setInterval(() => this.sweep(), RATE_WINDOW_MS);
    this.sweeper.unref();
  }

  async admit({ keyId, nonce, access, limit }: AdmitInput): Promise<AdmitResult> {
    const now = this.clock();
    if (now - this.generationStart >= this.nonceTtlMs) {
      this.previous = this.current;
      // Sized for what the last generation held: no growing again at a steady rate.
      this.current = new NonceTable(this.previous.size);
      this.generationStart = now;
    }
    const seen = this.fingerprint(keyId, nonce);
    if (this.previous.has(seen) || !this.current.add(seen)) return { kind: 'replayed' };

    const logKey = `${keyId}\u0000${access}`;
    let log = this.logs.get(logKey);
    if (!log) this.logs.set(logKey, (log = new SlidingLog()));
    const count = log.count(now);
    if (count >= limit) {
      return {
        kind: 'limited',
        limit,
        resetSeconds: secondsUntil(log.oldest()! + RATE_WINDOW_MS - now),
      };
    }
    log.add(now);
    return {
      kind: 'ok',
      limit,
      remaining: limit - count - 1,
      resetSeconds: secondsUntil(log.oldest()! + RATE_WINDOW_MS - now),
    };
  }

  /** The nonces remembered (both generations) and the bytes their tables hold. */
  nonceMemory(): { nonces: number; bytes: number } {
    return {
      nonces: this.current.size + this.previous.size,
      bytes: this.current.bytes + this.previous.bytes,
    };
  }

  private sweep(): void {
    const now = this.clock();
    for (const [key, log] of this.logs) if (log.count(now) === 0) this.logs.delete(key);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
