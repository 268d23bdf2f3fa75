import { Gauge, type Registry } from 'prom-client';
import type { Db, PoolStats } from '../db/index.ts';

const GAUGES: ReadonlyArray<[name: string, help: string, stat: keyof PoolStats]> = [
  [
    'db_pool_max_connections',
    'Connections the pool may open (DATABASE_POOL_SIZE; 1 for the embedded database, one session)',
    'max',
  ],
  ['db_pool_open_connections', 'Connections open now', 'open'],
  ['db_pool_idle_connections', 'Open connections doing nothing', 'idle'],
  [
    'db_pool_waiting',
    'Queries and transactions waiting for a connection (embedded: for the session)',
    'waiting',
  ],
];

/** The database pool's use, read when scraped. */
export function registerPoolGauges(registry: Registry, db: Pick<Db, 'poolStats'>): void {
  for (const [name, help, stat] of GAUGES) {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(db.poolStats()[stat]);
      },
    });
  }
}
