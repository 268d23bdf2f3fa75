/** The load generator: node:http with keep-alive agents, sequential latency and closed-loop throughput. */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { PartnerClient } from '../../packages/sdk/src/index.ts';
import { percentile } from './stats.ts';

export interface Route {
  label: string;
  path: string;
  /** Null for the unauthenticated baseline. */
  signer: PartnerClient | null;
}

export function signedRoute(label: string, path: string, key: { apiKey: string; signingSecret: string }, baseUrl: string): Route {
  return { label, path, signer: new PartnerClient({ apiKey: key.apiKey, signingSecret: key.signingSecret, baseUrl }) };
}

/**
 * Signed headers are made ahead of the timed phase, in one batch per phase, with the SDK's own
 * `signHeaders` (fresh timestamp, UUID nonce, HMAC-SHA256). Signing inside the timed window would
 * count the client's SHA-256/HMAC/UUID work (a few µs) as server latency and, with client and
 * server sharing two cores, take CPU from the server during the throughput phase. A batch is used
 * at most a few seconds after it is made, well inside the server's 5-minute clock-skew window.
 * If a throughput batch runs out, the rest are signed inline and counted (`signedInline`).
 */
class HeaderSource {
  private batch: Array<Record<string, string>> = [];
  private next = 0;
  signedInline = 0;

  constructor(private readonly route: Route) {}

  prepare(count: number): void {
    this.next = 0;
    this.signedInline = 0;
    this.batch = this.route.signer ? Array.from({ length: count }, () => this.sign()) : [];
  }

  take(): Record<string, string> | undefined {
    if (!this.route.signer) return undefined;
    if (this.next < this.batch.length) return this.batch[this.next++];
    this.signedInline++;
    return this.sign();
  }

  private sign(): Record<string, string> {
    return this.route.signer!.signHeaders('GET', this.route.path, '');
  }
}

export class Failures {
  count = 0;
  samples: string[] = [];
  add(what: string): void {
    this.count++;
    if (this.samples.length < 5) this.samples.push(what);
  }
}

interface Target {
  port: number;
  agent: Agent;
}

/** One GET; resolves with its latency in ms (timer starts just before the request is issued). */
function get(target: Target, path: string, headers: Record<string, string> | undefined, failures: Failures): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request({ host: '127.0.0.1', port: target.port, path, method: 'GET', agent: target.agent, headers }, (res) => {
      const status = res.statusCode ?? 0;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (status < 200 || status >= 300) body += chunk;
      });
      res.on('end', () => {
        const elapsed = performance.now() - t0;
        if (status < 200 || status >= 300) failures.add(`${status} ${path}: ${body.slice(0, 300)}`);
        resolve(elapsed);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
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

export class LoadGenerator {
  private readonly sequential: Target;
  private readonly concurrent: Target;
  private readonly sources = new Map<Route, HeaderSource>();
  readonly failures = new Failures();

  constructor(
    port: number,
    readonly concurrency: number,
    private readonly serverCpuMs: () => number | undefined,
  ) {
    this.sequential = { port, agent: new Agent({ keepAlive: true, maxSockets: 1 }) };
    this.concurrent = { port, agent: new Agent({ keepAlive: true, maxSockets: concurrency }) };
  }

  private source(route: Route): HeaderSource {
    let s = this.sources.get(route);
    if (!s) this.sources.set(route, (s = new HeaderSource(route)));
    return s;
  }

  /** `count` sequential requests (concurrency 1). */
  async latency(route: Route, count: number): Promise<LatencyResult> {
    const src = this.source(route);
    src.prepare(count);
    const samples: number[] = new Array(count);
    for (let i = 0; i < count; i++) samples[i] = await get(this.sequential, route.path, src.take(), this.failures);
    return {
      requests: count,
      p50: percentile(samples, 50),
      p99: percentile(samples, 99),
      mean: samples.reduce((a, b) => a + b, 0) / count,
    };
  }

  /** Closed loop: `concurrency` workers each send the next request as soon as the last one answers. */
  async throughput(route: Route, seconds: number, expectedRps: number): Promise<ThroughputResult> {
    const src = this.source(route);
    src.prepare(Math.ceil(expectedRps * seconds * 1.5) + 1000);
    const samples: number[] = [];
    const cpu0 = this.serverCpuMs();
    const client0 = process.cpuUsage();
    const start = performance.now();
    const deadline = start + seconds * 1000;
    let last = start;
    const worker = async () => {
      while (performance.now() < deadline) {
        samples.push(await get(this.concurrent, route.path, src.take(), this.failures));
        last = performance.now();
      }
    };
    await Promise.all(Array.from({ length: this.concurrency }, worker));
    const elapsed = (last - start) / 1000;
    const cpu1 = this.serverCpuMs();
    const client = process.cpuUsage(client0);
    const n = samples.length;
    return {
      requests: n,
      seconds: elapsed,
      rps: n / elapsed,
      p50: percentile(samples, 50),
      p99: percentile(samples, 99),
      serverCpuUsPerReq: cpu0 !== undefined && cpu1 !== undefined ? ((cpu1 - cpu0) * 1000) / n : undefined,
      clientCpuUsPerReq: (client.user + client.system) / n,
      signedInline: src.signedInline,
    };
  }

  close(): void {
    this.sequential.agent.destroy();
    this.concurrent.agent.destroy();
  }
}
