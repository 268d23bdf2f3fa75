/** The load generator: node:http with keep-alive agents, sequential latency and closed-loop throughput. */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { PartnerClient } from '../../packages/sdk/src/index.ts';
import { type GeneratorProcesses, sharedGenerators } from './generators.ts';
import { percentile } from './stats.ts';

/** What signs a request: a PartnerClient, or anything with its signHeaders (e.g. one rotating over several keys). */
export type Signer = Pick<PartnerClient, 'signHeaders'>;

export interface Route {
  label: string;
  path: string;
  /** Null for the unauthenticated baseline. */
  signer: Signer | null;
  /** A fresh request path per request (e.g. `/orders/<random id>`), used instead of `path`. */
  target?: () => string;
  /** GET without a body unless `body` is given; then POST with a fresh JSON body per request. */
  body?: () => unknown;
  /** A fresh query string (without '?') per request, e.g. a random product id; signed with the path. */
  query?: () => string;
}

export function signedRoute(
  label: string,
  path: string,
  key: { apiKey: string; signingSecret: string },
  baseUrl: string,
  body?: () => unknown,
): Route {
  return {
    label,
    path,
    signer: new PartnerClient({ apiKey: key.apiKey, signingSecret: key.signingSecret, baseUrl }),
    ...(body ? { body } : {}),
  };
}

/** What one request sends: signed headers (none for the baseline) and, for a POST, its body. */
export interface Prepared {
  headers: Record<string, string> | undefined;
  /** The request target when the route has a per-request path or query. */
  path?: string;
  body?: string;
}

/**
 * Signed headers (and POST bodies) are made ahead of the timed phase, in one batch per phase, with
 * the SDK's own `signHeaders` (fresh timestamp, UUID nonce, HMAC-SHA256). Signing inside the timed window would
 * count the client's SHA-256/HMAC/UUID work (a few µs) as server latency and, with client and
 * server sharing two cores, take CPU from the server during the throughput phase. A batch is used
 * at most a few seconds after it is made, well inside the server's 5-minute clock-skew window.
 * If a throughput batch runs out, the rest are signed inline and counted (`signedInline`).
 */
class HeaderSource {
  private batch: Prepared[] = [];
  private next = 0;
  signedInline = 0;
  private static readonly UNSIGNED: Prepared = { headers: undefined };

  constructor(private readonly route: Route) {}

  private get needsBatch(): boolean {
    return (
      this.route.signer !== null ||
      this.route.body !== undefined ||
      this.route.query !== undefined ||
      this.route.target !== undefined
    );
  }

  prepare(count: number): void {
    this.next = 0;
    this.signedInline = 0;
    this.batch = this.needsBatch ? Array.from({ length: count }, () => this.make()) : [];
  }

  /** `count` requests for an external generator, or null when every request is the same unsigned GET. */
  takeMany(count: number): Prepared[] | null {
    if (!this.needsBatch) return null;
    // Past the batch these are signed here, still before the slice starts: never timed.
    return Array.from({ length: count }, () =>
      this.next < this.batch.length ? this.batch[this.next++]! : this.make(),
    );
  }

  take(): Prepared {
    if (!this.needsBatch) return HeaderSource.UNSIGNED;
    if (this.next < this.batch.length) return this.batch[this.next++]!;
    this.signedInline++;
    return this.make();
  }

  private make(): Prepared {
    const { signer, body, query, target } = this.route;
    const base = target ? target() : this.route.path;
    const path = query ? `${base}?${query()}` : base;
    const own = query !== undefined || target !== undefined;
    if (!body)
      return {
        headers: signer ? signer.signHeaders('GET', path, '') : undefined,
        ...(own ? { path } : {}),
      };
    const text = JSON.stringify(body());
    const headers = {
      ...(signer ? signer.signHeaders('POST', path, text) : {}),
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    };
    return { headers, body: text, ...(own ? { path } : {}) };
  }
}

export class Failures {
  count = 0;
  /** Requests sent again because the server had closed their idle keep-alive socket (never a failure). */
  resent = 0;
  samples: string[] = [];
  add(what: string): void {
    this.count++;
    if (this.samples.length < 5) this.samples.push(what);
  }
}

export interface Target {
  port: number;
  agent: Agent;
}

/**
 * One GET (or POST with a body); resolves with its latency in ms (timer starts just before the
 * request is issued). The server closes keep-alive sockets idle for its keepAliveTimeout; if a
 * request went out on such a socket before its close was seen, the server never read it, so it is
 * sent once more on a fresh socket and timed from there (Node's documented `reusedSocket` retry).
 */
async function get(
  target: Target,
  path: string,
  prepared: Prepared,
  failures: Failures,
): Promise<number> {
  // Other idle sockets of the pool may have been closed too: each try takes a different one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(target, path, prepared, failures);
    } catch (err) {
      const stale =
        (err as { reusedSocket?: boolean }).reusedSocket &&
        (err as NodeJS.ErrnoException).code === 'ECONNRESET';
      if (!stale || attempt > 64) throw err;
      failures.resent++;
    }
  }
}

function send(
  target: Target,
  path: string,
  prepared: Prepared,
  failures: Failures,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const { headers, body: payload } = prepared;
    const method = payload === undefined ? 'GET' : 'POST';
    const t0 = performance.now();
    const req = request(
      { host: '127.0.0.1', port: target.port, path, method, agent: target.agent, headers },
      (res) => {
        const status = res.statusCode ?? 0;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (status < 200 || status >= 300) body += chunk;
        });
        res.on('end', () => {
          const elapsed = performance.now() - t0;
          if (status < 200 || status >= 300)
            failures.add(`${status} ${method} ${path}: ${body.slice(0, 300)}`);
          resolve(elapsed);
        });
        res.on('error', reject);
      },
    );
    req.on('error', (err) => reject(Object.assign(err, { reusedSocket: req.reusedSocket })));
    req.end(payload);
  });
}

export interface LatencyResult {
  requests: number;
  p50: number;
  p99: number;
  mean: number;
}

export interface ThroughputResult {
  requests: number;
  seconds: number;
  rps: number;
  /** Latency under load, for information. */
  p50: number;
  p99: number;
  /** Server process CPU per request (µs); excludes PostgreSQL and Redis. */
  serverCpuUsPerReq: number | undefined;
  /** Bench (client) process CPU per request (µs), which competes with the server for the cores. */
  clientCpuUsPerReq: number;
  signedInline: number;
}

interface Tally {
  samples: number[];
  seconds: number;
  serverCpuMs: number | undefined;
  clientCpuUs: number;
}

const newTally = (): Tally => ({ samples: [], seconds: 0, serverCpuMs: 0, clientCpuUs: 0 });

/**
 * Both routes of a comparison are measured interleaved, not one after the other: sequential
 * requests alternate A B B A ..., and the throughput window is cut into short slices that
 * alternate the same way. On a shared 2-core machine, load from other processes comes and goes
 * within seconds; interleaving spreads it evenly over both routes instead of penalising whichever
 * happened to run during a burst. Each call is one round; callers take medians over rounds.
 */
/**
 * The rate to sign requests ahead for, from a measured one: a short cold warm-up understates the
 * timed run's rate (JIT, pools, a profiler attaching), hence the margin and the floor. LoadGenerator
 * signs 1.5 × more again; a generator that runs out of signed requests fails the bench.
 */
export const expectedRate = (measuredRps: number): number => Math.max(measuredRps * 1.5, 2000);

export class LoadGenerator {
  private readonly sequential: Target;
  private readonly concurrent: Target;
  private readonly sources = new Map<Route, HeaderSource>();
  readonly failures = new Failures();
  /** Called as each throughput slice starts (with its route) and ends (null), e.g. to attribute samples to routes. */
  onSlice: ((route: Route | null) => void) | undefined;

  constructor(
    private readonly port: number,
    readonly concurrency: number,
    private readonly serverCpuMs: () => number | undefined,
    /** Length of one throughput slice. */
    private readonly sliceSeconds = 0.5,
    /** Processes that send the throughput load (bench/lib/generators.ts); none: this process does. */
    private readonly generators: GeneratorProcesses | undefined = sharedGenerators(),
  ) {
    this.sequential = { port, agent: new Agent({ keepAlive: true, maxSockets: 1 }) };
    this.concurrent = { port, agent: new Agent({ keepAlive: true, maxSockets: concurrency }) };
  }

  private source(route: Route): HeaderSource {
    let s = this.sources.get(route);
    if (!s) this.sources.set(route, (s = new HeaderSource(route)));
    return s;
  }

  /** `count` sequential requests per route (concurrency 1), alternating A B B A. */
  async latency(routes: readonly Route[], count: number): Promise<LatencyResult[]> {
    const sources = routes.map((r) => this.source(r));
    for (const s of sources) s.prepare(count);
    await settle();
    const samples = routes.map(() => new Array<number>(count));
    for (let i = 0; i < count; i++) {
      for (const k of order(routes.length, i)) {
        const prepared = sources[k]!.take();
        samples[k]![i] = await get(
          this.sequential,
          prepared.path ?? routes[k]!.path,
          prepared,
          this.failures,
        );
      }
    }
    return samples.map((s) => ({
      requests: count,
      p50: percentile(s, 50),
      p99: percentile(s, 99),
      mean: s.reduce((a, b) => a + b, 0) / count,
    }));
  }

  /** `seconds` of closed-loop load per route, in alternating slices. */
  async throughput(
    routes: readonly Route[],
    seconds: number,
    expectedRps: readonly number[],
  ): Promise<ThroughputResult[]> {
    const sources = routes.map((r) => this.source(r));
    sources.forEach((s, k) => s.prepare(Math.ceil(expectedRps[k]! * seconds * 1.5) + 1000));
    await settle();
    const tallies = routes.map(newTally);
    const slices = Math.max(1, Math.round(seconds / this.sliceSeconds));
    for (let i = 0; i < slices; i++) {
      for (const k of order(routes.length, i))
        await this.slice(routes[k]!, sources[k]!, seconds / slices, expectedRps[k]!, tallies[k]!);
    }
    return tallies.map((t, k) => {
      const n = t.samples.length;
      return {
        requests: n,
        seconds: t.seconds,
        rps: n / t.seconds,
        p50: percentile(t.samples, 50),
        p99: percentile(t.samples, 99),
        serverCpuUsPerReq: t.serverCpuMs === undefined ? undefined : (t.serverCpuMs * 1000) / n,
        clientCpuUsPerReq: t.clientCpuUs / n,
        signedInline: sources[k]!.signedInline,
      };
    });
  }

  /**
   * One slice of closed-loop load, from the generator processes when there are any (their CPU is
   * theirs, not this process's), else from this process.
   */
  private async slice(
    route: Route,
    src: HeaderSource,
    seconds: number,
    expectedRps: number,
    tally: Tally,
  ): Promise<void> {
    // Made before the slice starts: signing is the client's work, never the server's time.
    const batches = this.generators
      ? this.generators
          .shares(this.concurrency)
          .map((connections) =>
            src.takeMany(
              Math.ceil((expectedRps * seconds * 2 * connections) / this.concurrency) + 500,
            ),
          )
      : undefined;
    const cpu0 = this.serverCpuMs();
    const client0 = process.cpuUsage();
    this.onSlice?.(route);
    let elapsedMs: number;
    let generatorCpuUs = 0;
    if (this.generators && batches) {
      const out = await this.generators.slice(
        this.port,
        this.concurrency,
        seconds,
        route.path,
        batches,
      );
      elapsedMs = out.elapsedMs;
      generatorCpuUs = out.cpuUs;
      for (const sample of out.samples) tally.samples.push(sample);
      for (const failure of out.failures) this.failures.add(failure);
      this.failures.count += out.failureCount - out.failures.length;
      this.failures.resent += out.resent;
      if (out.ranOut > 0)
        this.failures.add(
          `a generator process ran out of prepared requests ${out.ranOut} time(s): raise the expected rate`,
        );
    } else {
      const take = () => src.take();
      elapsedMs = await closedLoop(
        this.concurrent,
        this.concurrency,
        seconds,
        route.path,
        take,
        this.failures,
        tally.samples,
      );
    }
    this.onSlice?.(null);
    const cpu1 = this.serverCpuMs();
    const client = process.cpuUsage(client0);
    tally.seconds += elapsedMs / 1000;
    tally.serverCpuMs =
      cpu0 === undefined || cpu1 === undefined || tally.serverCpuMs === undefined
        ? undefined
        : tally.serverCpuMs + cpu1 - cpu0;
    tally.clientCpuUs += client.user + client.system + generatorCpuUs;
  }

  close(): void {
    this.sequential.agent.destroy();
    this.concurrent.agent.destroy();
  }
}

/**
 * Signing a batch blocks the event loop; letting it turn once afterwards handles the socket closes
 * that arrived meanwhile, so the timed phase does not start on sockets the server has closed.
 */
const settle = () => new Promise<void>((r) => setTimeout(r, 20));

/** Route indexes for step i: forwards on even steps, backwards on odd ones (A B, B A, A B ...). */
function order(n: number, i: number): number[] {
  const forwards = Array.from({ length: n }, (_, k) => k);
  return i % 2 === 0 ? forwards : forwards.reverse();
}

/**
 * Closed loop for `seconds`: `concurrency` workers each send the next request as soon as the last
 * one answers, until the time is up or `take` has no more. Pushes each latency onto `samples` and
 * answers the milliseconds from the start to the last answer.
 */
export async function closedLoop(
  target: Target,
  concurrency: number,
  seconds: number,
  defaultPath: string,
  take: () => Prepared | undefined,
  failures: Failures,
  samples: number[],
): Promise<number> {
  const start = performance.now();
  const deadline = start + seconds * 1000;
  let last = start;
  const worker = async () => {
    for (let prepared = take(); prepared && performance.now() < deadline; prepared = take()) {
      samples.push(await get(target, prepared.path ?? defaultPath, prepared, failures));
      last = performance.now();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return last - start;
}
