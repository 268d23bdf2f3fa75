/**
 * The throughput load, sent from processes of its own (issue 30): a generator sharing the bench
 * driver's event loop is its own ceiling, and compresses every ratio toward 1. Each process keeps
 * its own keep-alive connections (its share of the run's) and sends requests the driver signed
 * before the slice, so neither signing nor the driver's work is timed.
 *
 * BENCH_GENERATORS: how many processes (default 1); 0 sends the load from the driver as before.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onCleanup } from './cleanup.ts';
import type { Prepared } from './load.ts';

/** What the driver asks of one process for one slice. */
export interface SliceOrder {
  port: number;
  connections: number;
  seconds: number;
  path: string;
  /** Signed requests to send in order; null when every request is the same unsigned GET of `path`. */
  batch: Prepared[] | null;
}

/** What one process answers. */
export interface SliceReport {
  samples: number[];
  elapsedMs: number;
  /** The process's own CPU during the slice, µs. */
  cpuUs: number;
  failures: string[];
  /** How many requests failed (`failures` holds the first few). */
  failureCount: number;
  resent: number;
  /** 1 when its batch ran out before the time was up. */
  ranOut: number;
}

const CHILD = fileURLToPath(new URL('./generator-process.ts', import.meta.url));

export class GeneratorProcesses {
  private readonly children: ChildProcess[];

  constructor(readonly count: number) {
    this.children = Array.from({ length: count }, () =>
      fork(CHILD, [], {
        execArgv: ['--import', 'tsx'],
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
    onCleanup(async () => this.close());
  }

  /** How `connections` are shared out: as evenly as they go, none left idle. */
  shares(connections: number): number[] {
    const n = Math.min(this.count, connections);
    return Array.from({ length: n }, (_, i) => Math.floor((connections + n - 1 - i) / n));
  }

  /** One slice from every process at once, its `batches[i]` to process i; their reports merged. */
  async slice(
    port: number,
    connections: number,
    seconds: number,
    path: string,
    batches: Array<Prepared[] | null>,
  ): Promise<SliceReport> {
    const shares = this.shares(connections);
    const reports = await Promise.all(
      shares.map((share, i) =>
        this.ask(this.children[i]!, {
          port,
          connections: share,
          seconds,
          path,
          batch: batches[i]!,
        }),
      ),
    );
    return {
      samples: reports.flatMap((r) => r.samples),
      elapsedMs: Math.max(...reports.map((r) => r.elapsedMs)),
      cpuUs: reports.reduce((sum, r) => sum + r.cpuUs, 0),
      failures: reports.flatMap((r) => r.failures),
      failureCount: reports.reduce((sum, r) => sum + r.failureCount, 0),
      resent: reports.reduce((sum, r) => sum + r.resent, 0),
      ranOut: reports.reduce((sum, r) => sum + r.ranOut, 0),
    };
  }

  private ask(child: ChildProcess, order: SliceOrder): Promise<SliceReport> {
    return new Promise((resolve, reject) => {
      const exited = (code: number | null) =>
        reject(new Error(`a load generator process exited (${code}) during a slice`));
      child.once('exit', exited);
      child.once('message', (report) => {
        child.off('exit', exited);
        resolve(report as SliceReport);
      });
      child.send(order);
    });
  }

  /** Closing the channel ends each process (it exits on disconnect), without a signal. */
  close(): void {
    for (const child of this.children) if (child.connected) child.disconnect();
  }
}

let shared: GeneratorProcesses | undefined;
let chosen: number | undefined;

/** BENCH_GENERATORS: the processes asked for (default 1; 0 sends the load from the driver). */
export function askedGenerators(): number {
  const count = Number(process.env.BENCH_GENERATORS ?? 1);
  if (!Number.isInteger(count) || count < 0)
    throw new Error(`BENCH_GENERATORS must be a whole number, not ${process.env.BENCH_GENERATORS}`);
  return count;
}

/** The processes the generator check found the load needs (generator-check.ts), for the rest of the run. */
export function useGenerators(count: number): void {
  chosen = count;
}

/** The run's generator processes (as the check chose, else BENCH_GENERATORS), started with the first load; none at 0. */
export function sharedGenerators(): GeneratorProcesses | undefined {
  const count = chosen ?? askedGenerators();
  if (count === 0) return undefined;
  if (shared?.count !== count) {
    shared?.close();
    shared = new GeneratorProcesses(count);
  }
  return shared;
}
