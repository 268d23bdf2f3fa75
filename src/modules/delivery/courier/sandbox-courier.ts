import type { Db } from '../../../platform/db/index.ts';
import { isAppError } from '../../../platform/errors.ts';
import { nextSandboxStatus } from '../domain/index.ts';
import { ordersRepository } from '../orders/repository.ts';
import type { OrdersService } from '../orders/service.ts';

const BATCH = 100;

/**
 * A test courier for staging orders: each one moves one stage forward once it has rested for a
 * step, until delivered, so partners see a whole lifecycle and its webhooks without an operator.
 * Production orders never move here. Several instances may run it: a move lost to another
 * instance is simply skipped.
 */
export class SandboxCourier {
  constructor(
    private readonly db: Db,
    private readonly orders: OrdersService,
    private readonly stepMs: number,
    private readonly clock: () => number,
  ) {}

  /** Advances every staging order that has rested a full step; returns how many moved. */
  async tick(): Promise<number> {
    const due = await ordersRepository.dueSandboxOrders(this.db, new Date(this.clock() - this.stepMs), BATCH);
    let moved = 0;
    for (const order of due) {
      const next = nextSandboxStatus(order.status);
      if (!next) continue;
      try {
        await this.orders.move(order, next, 'Sandbox courier');
        moved++;
      } catch (err) {
        // Cancelled or moved meanwhile: nothing to do for this one.
        if (!isAppError(err)) throw err;
      }
    }
    return moved;
  }
}
