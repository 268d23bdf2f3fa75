/**
 * Driver side of the courier fleet (courier-fleet-process.ts): starts its process, which sends each
 * courier's position every `everyMs` through the courier app's endpoint until stopped.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onCleanup } from './cleanup.ts';
import type { FleetOrder, FleetReport } from './courier-fleet-process.ts';

const CHILD = fileURLToPath(new URL('./courier-fleet-process.ts', import.meta.url));

export class CourierFleet {
  private readonly child: ChildProcess;

  constructor(order: FleetOrder) {
    this.child = fork(CHILD, [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    onCleanup(async () => this.close());
    this.child.send({ start: order });
  }

  /** Reports sent so far and their latency (the process keeps running). */
  read(): Promise<FleetReport> {
    return this.ask({ read: true });
  }

  /** Stops sending and answers the totals. */
  stop(): Promise<FleetReport> {
    return this.ask({ stop: true });
  }

  private ask(msg: object): Promise<FleetReport> {
    return new Promise((resolve, reject) => {
      const exited = (code: number | null) =>
        reject(new Error(`the courier fleet process exited (${code})`));
      this.child.once('exit', exited);
      this.child.once('message', (r) => {
        this.child.off('exit', exited);
        resolve(r as FleetReport);
      });
      this.child.send(msg);
    });
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
  }
}

/** One line about the fleet's reports. */
export function describeFleet(r: FleetReport, couriers: number, everyS: number): string {
  return (
    `${couriers} couriers reporting every ${everyS} s through POST /courier/actions: ${r.sent} reports, ` +
    `${r.ok} applied, ${r.failed} failed, ${r.skipped} skipped (previous one unanswered); ` +
    `p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms` +
    (r.firstFailures.length ? `; e.g. ${r.firstFailures[0]}` : '')
  );
}
