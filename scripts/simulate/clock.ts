/**
 * The simulated day's time: the server is given `now` as its clock, so offers, holds and session
 * times run `speed` times faster than the wall. Before the day starts the clock can be moved by
 * hand (setup that takes time in a real morning: couriers signing in, destinations cooling).
 */
export class SimClock {
  private base: number;
  private wallAt = 0;
  private speed = 0;

  constructor(start: number) {
    this.base = start;
  }

  /** Milliseconds since the epoch, simulated. */
  readonly now = (): number =>
    this.speed === 0 ? this.base : this.base + (performance.now() - this.wallAt) * this.speed;

  /** Moves a stopped clock forward. */
  advance(ms: number): void {
    if (this.speed !== 0) throw new Error('the clock is running');
    this.base += ms;
  }

  /** Starts the clock at `speed` simulated milliseconds per wall millisecond. */
  run(speed: number): void {
    this.base = this.now();
    this.wallAt = performance.now();
    this.speed = speed;
  }

  /** Resolves after `ms` of simulated time (at least a millisecond of wall time), or at `signal`. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const wall = this.speed === 0 ? 0 : ms / this.speed;
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(1, Math.round(wall)));
      signal?.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
    });
  }

  /** Resolves when the simulated clock reaches `at`. */
  async until(at: number): Promise<void> {
    while (this.now() < at) await this.sleep(Math.min(at - this.now(), 60_000));
  }
}

/** A seeded generator (mulberry32): the same seed gives the same day. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Exponential with this mean: the gap between two arrivals of a Poisson process. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next());
  }

  /** Lognormal with this median and log-space spread (sigma). */
  lognormal(median: number, sigma: number): number {
    const u = Math.max(this.next(), 1e-12);
    const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
    return median * Math.exp(sigma * normal);
  }
}

/** The value at quantile q (0..1) of a list of numbers; NaN when there are none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? sorted[0]!;
}
