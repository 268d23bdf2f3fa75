import { expect } from 'vitest';
import type { TestPlatform } from '../helpers/harness.ts';

/**
 * A delivered order's `delivered_at` (what the dashboard's chart reads, migration 072): present, and
 * the time of its 'delivered' move on the timeline, as the move that delivered it wrote both.
 * Returns that time, for a test to check it against its clock. The move is read through the
 * delivery module's face; `delivered_at` with SQL, as no face shows the column.
 */
export async function expectDeliveredAt(
  p: Pick<TestPlatform, 'app'>,
  orderId: string,
): Promise<number> {
  const moves = await p.app.platform.delivery!.orders.history(orderId);
  const movedAt = moves.find((e) => e.status === 'delivered')?.at;
  const [row] = await p.app.platform.db.query<{ delivered_at: Date | null }>(
    'select delivered_at from delivery_orders where id = $1',
    [orderId],
  );
  expect(movedAt, `order ${orderId} has a delivered move`).toBeInstanceOf(Date);
  expect(row?.delivered_at, `order ${orderId} keeps its delivery time`).toEqual(movedAt);
  return movedAt!.getTime();
}
