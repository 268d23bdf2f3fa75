import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../platform/db/index.ts';
import { webhooksRepository as repo, type Backlog } from './repository.ts';

/**
 * The delivery backlog, read when scraped: events waiting (pending) and given up on (dead), and
 * how long the oldest waiting one has waited. One query (over a partial index of just those
 * events) feeds both gauges of a scrape.
 */
export function registerBacklogGauges(registry: Registry, db: Db, clock: () => number): void {
  let reading: Promise<Backlog | undefined> | undefined;
  // The registry collects its gauges concurrently: the first to ask reads, the other shares it. A
  // database that does not answer leaves the gauges out of that scrape rather than failing it.
  const read = () =>
    (reading ??= repo
      .backlog(db)
      .catch(() => undefined)
      .finally(() => (reading = undefined)));

  new Gauge({
    name: 'webhook_backlog_events',
    help: 'Webhook events waiting to be delivered (status="pending") or dead-lettered (status="dead")',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      const backlog = await read();
      if (!backlog) return;
      this.set({ status: 'pending' }, backlog.pending);
      this.set({ status: 'dead' }, backlog.dead);
    },
  });
  new Gauge({
    name: 'webhook_backlog_oldest_pending_age_seconds',
    help: 'How long the oldest webhook event still waiting to be delivered has waited (0 when none waits)',
    registers: [registry],
    async collect() {
      this.reset();
      const backlog = await read();
      if (!backlog) return;
      this.set(
        backlog.oldestPendingAt
          ? Math.max(0, (clock() - backlog.oldestPendingAt.getTime()) / 1000)
          : 0,
      );
    },
  });
}
