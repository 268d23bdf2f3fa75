import type { Db, Queryable } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import type { DeliveryOrder } from '../delivery/index.ts';
import { appendEvent } from '../webhooks/index.ts';
import { ringCouriers } from './offers.ts';
import { dispatchRepository as repo } from './repository.ts';

/** Jobs the sweep flags per round (each in its own transaction). */
const SWEEP_BATCH = 100;

/** Why an order will miss its window: nobody took it in time, or its courier's ETA is past the deadline. */
export type MissReason = 'no_courier' | 'eta_after_deadline';

/** Delivery's read of an order, for the event's addressing (OrdersService). */
export interface WindowOrders {
  find(orderId: string): Promise<DeliveryOrder | undefined>;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/**
 * Orders that will miss their delivery window: flagged on their dispatch job (the console boards
 * show it) and announced by one delivery.order.late event, in one transaction. Once per order: the
 * job's window_missed_at is set by compare-and-set, and the outbox's unique (subject, type, sequence)
 * refuses a second event whatever happens.
 */
export class WindowWatch {
  constructor(
    private readonly db: Db,
    private readonly orders: WindowOrders,
    private readonly clock: () => number,
    private readonly log: Logger,
  ) {}

  /**
   * The dispatcher's round: unassigned jobs whose last moment to be taken has passed (indexed read).
   * Jobs on a test clock are checked only in that clock's advance (`clockId`), at its time.
   */
  async sweep(clockId: string | null = null): Promise<string[]> {
    const now = new Date(this.clock());
    const flagged: string[] = [];
    for (const orderId of await repo.missing(this.db, now, SWEEP_BATCH, clockId)) {
      const order = await this.orders.find(orderId);
      if (!order) continue;
      const done = await this.db.transaction((tx) =>
        this.flag(tx, order, 'no_courier', null, now, true),
      );
      if (done) flagged.push(orderId);
    }
    return flagged;
  }

  /**
   * Flags the order in the caller's transaction (the trail's, when a courier's ETA passes the
   * deadline) with its event; false when it was flagged already (or, `unassigned`, is held now).
   */
  async flag(
    tx: Queryable,
    order: DeliveryOrder,
    reason: MissReason,
    eta: Date | null,
    now: Date,
    unassigned = false,
  ): Promise<boolean> {
    if (!(await repo.flagMissed(tx, order.id, now, unassigned))) return false;
    await appendEvent(tx, {
      appId: order.app_id,
      environment: order.environment,
      type: 'delivery.order.late',
      subjectId: order.id,
      // One late event per order: the outbox's unique key on (subject, type, sequence) holds it to one.
      sequence: 1,
      destinationUrl: order.webhook_url,
      at: now,
      data: {
        order_id: order.id,
        order_reference: order.order_reference,
        status: order.status,
        reason,
        pickup_ready_at: iso(order.pickup_ready_at),
        dropoff_deadline: iso(order.dropoff_deadline),
        eta: iso(eta),
        timestamp: now.toISOString(),
      },
    });
    // The boards show the flag; no courier's screen changes.
    ringCouriers(tx, []);
    this.log.warn(
      { alert: 'delivery_window_missed', orderId: order.id, reason },
      `ALERT: order ${order.id} will miss its delivery deadline (${reason})`,
    );
    return true;
  }
}
