import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../platform/db/index.ts';
import { dispatchRepository as repo } from './repository.ts';

/** Orders nobody accepted in time (late, still without a courier), read when scraped. */
export function registerDispatchGauges(registry: Registry, db: Db): void {
  new Gauge({
    name: 'dispatch_unaccepted_orders',
    help: 'Production orders still without a courier after DISPATCH_LATE_MINUTES (alert when above 0)',
    registers: [registry],
    async collect() {
      this.reset();
      // A database that does not answer leaves the gauge out of that scrape rather than failing it.
      const n = await repo.lateCount(db).catch(() => undefined);
      if (n !== undefined) this.set(n);
    },
  });
}
