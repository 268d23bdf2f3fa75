/** A load generator process (bench/lib/generators.ts): sends each slice it is given and reports it. */
import { Agent } from 'node:http';
import type { SliceOrder, SliceReport } from './generators.ts';
import { closedLoop, Failures, type Prepared, type Target } from './load.ts';

const UNSIGNED: Prepared = { headers: undefined };
const targets = new Map<string, Target>();

/** Keep-alive connections per port and share, kept across slices as the driver's own are. */
function targetFor(port: number, connections: number): Target {
  const key = `${port}/${connections}`;
  let target = targets.get(key);
  if (!target) {
    target = { port, agent: new Agent({ keepAlive: true, maxSockets: connections }) };
    targets.set(key, target);
  }
  return target;
}

// The driver closes the channel when it is done with this process (or when it exits).
process.on('disconnect', () => process.exit(0));

process.on('message', async (order: SliceOrder) => {
  const failures = new Failures();
  const samples: number[] = [];
  const { batch } = order;
  let next = 0;
  let ranOut = 0;
  const take = (): Prepared | undefined => {
    if (!batch) return UNSIGNED;
    if (next < batch.length) return batch[next++];
    ranOut = 1;
    return undefined;
  };
  const cpu0 = process.cpuUsage();
  const elapsedMs = await closedLoop(
    targetFor(order.port, order.connections),
    order.connections,
    order.seconds,
    order.path,
    take,
    failures,
    samples,
  );
  const cpu = process.cpuUsage(cpu0);
  const report: SliceReport = {
    samples,
    elapsedMs,
    cpuUs: cpu.user + cpu.system,
    failures: failures.samples,
    failureCount: failures.count,
    resent: failures.resent,
    ranOut,
  };
  process.send!(report);
});
