import { Gauge, type Registry } from 'prom-client';
import type { MailQueue } from './queue.ts';

/** mail_queue_messages{status="pending"|"dead"}: mail waiting to leave, and mail given up on. */
export function registerMailGauges(registry: Registry, queue: MailQueue): void {
  new Gauge({
    name: 'mail_queue_messages',
    help: 'Mail waiting to be sent (status="pending") or given up on after the attempt limit (status="dead")',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      // A database that does not answer leaves the gauge out of that scrape rather than failing it.
      const backlog = await queue.backlog().catch(() => undefined);
      if (!backlog) return;
      this.set({ status: 'pending' }, backlog.pending);
      this.set({ status: 'dead' }, backlog.dead);
    },
  });
}
