import { expect } from 'vitest';
import type { Queryable } from '../../src/platform/db/index.ts';

/**
 * A delivered order's `delivered_at` (what the dashboard's chart reads, migration 072): present, and
 * the time of its 'delivered' move on the timeline, as the move that delivered it wrote both.
 * Returns that time, for a test to check it against its clock.
 */
export async function expectDeliveredAt(db: Queryable, orderId: string): Promise<number> {
  const [row] = await db.query<{ delivered_at: Date | null; moved_at: Date | null }>(
    `select o.delivered_at, e.at as moved_at from delivery_orders o
       left join delivery_order_events e on e.order_id = o.id and e.status = 'delivered'
      where o.id = $1`,
    [orderId],
  );
  expect(row?.moved_at, `order ${orderId} has a delivered move`).toBeInstanceOf(Date);
  expect(row?.delivered_at, `order ${orderId} keeps its delivery time`).toEqual(row!.moved_at);
  return row!.moved_at!.getTime();
}
