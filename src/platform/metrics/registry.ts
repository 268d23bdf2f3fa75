import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The instruments of the whole process: counters that modules and the platform update where the
 * thing happens (auth outcomes, top-ups, journals, job runs), and Node's own metrics. A deployment
 * runs one app per process, so they need no wiring through every constructor; each app adds its
 * own scrape-time gauges (pool, backlog) on a registry of its own, merged in at scrape.
 */
export const processMetrics = new Registry();

let nodeMetrics = false;

/** Node's default metrics (heap, GC, event-loop lag...), started once and only when someone scrapes them. */
export function collectNodeMetrics(): void {
  if (nodeMetrics) return;
  nodeMetrics = true;
  collectDefaultMetrics({ register: processMetrics });
}
