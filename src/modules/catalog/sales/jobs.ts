import type { Logger } from '../../../platform/logger.ts';
import type { Db } from '../../../platform/db/index.ts';
import { isRefusal, type Dispatcher } from './dispatch.ts';
import { salesRepository as repo } from './repository.ts';
import type { SalesService } from './service.ts';

const BATCH = 50;
/** Creation dispatches its own delivery order; the job only picks up sales older than this. */
const DISPATCH_GRACE_MS = 5_000;

/**
 * The sales job, run every few seconds on instances serving safe-catalog; each step is a
 * compare-and-set, so instances running it together never double-apply anything:
 * - unpaid prepaid sales past their deadline are checked once more with the gateway, then
 *   confirmed if paid or failed and restocked;
 * - sales owed a delivery order (a crash before their dispatch, or a payment confirmed by a
 *   callback) get it; one whose order delivery refuses fails and restocks;
 * - cash-on-delivery sales whose delivery ended on an instance that does not run the move
 *   listener (services served apart) follow it.
 */
export class SalesJobs {
  constructor(
    private readonly deps: {
      db: Db;
      clock: () => number;
      log: Logger;
      sales: SalesService;
      dispatcher: Dispatcher;
    },
  ) {}

  async tick(): Promise<{ expired: number; dispatched: number; followed: number }> {
    const { db, sales, dispatcher } = this.deps;
    const now = new Date(this.deps.clock());
    let expired = 0;
    for (const id of await repo.dueExpiries(db, now, BATCH)) {
      const sale = await repo.findById(db, id);
      if (!sale) continue;
      // A gateway outage leaves the sale for the next run rather than failing a sale that may be paid.
      await sales.checkPayment(sale).then(
        () => expired++,
        (err: unknown) =>
          this.deps.log.warn(
            { err, sale: id },
            'could not check an expired checkout; retrying on the next run',
          ),
      );
    }
    let dispatched = 0;
    if (dispatcher.available) {
      for (const id of await repo.undispatched(
        db,
        new Date(now.getTime() - DISPATCH_GRACE_MS),
        BATCH,
      )) {
        const sale = await repo.findById(db, id);
        if (!sale) continue;
        try {
          if (await dispatcher.dispatch(sale)) dispatched++;
        } catch (err) {
          // Refused for good (the order's input is invalid): retrying cannot help, so the sale fails and restocks.
          if (isRefusal(err)) await sales.failUndeliverable(id, 'delivery_refused');
          else this.deps.log.warn({ err, sale: id }, 'dispatch failed; retrying');
        }
      }
    }
    const ended = await repo.endedDeliveries(db, BATCH);
    for (const { id, delivery_status } of ended) await sales.follow(id, delivery_status);
    return { expired, dispatched, followed: ended.length };
  }
}
