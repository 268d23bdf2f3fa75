import type { Queryable } from '../../../platform/db/index.ts';
import type { OrderRow } from '../orders/repository.ts';

export type UssdOrderRow = Pick<
  OrderRow,
  'id' | 'order_reference' | 'status' | 'estimated_delivery'
>;

export const ussdRepository = {
  /**
   * The newest order sent to `phone` (E.164) whose reference, upper-cased with everything but
   * letters and digits dropped, is `code` (already in that form): a keypad makes "ORD-1234" hard
   * to type, "ORD1234" or "ord1234" easy. The phone index narrows the read to that phone's orders.
   */
  async findForRecipient(
    db: Queryable,
    phone: string,
    code: string,
  ): Promise<UssdOrderRow | undefined> {
    const rows = await db.query<UssdOrderRow>(
      `select id, order_reference, status, estimated_delivery from delivery_orders
        where customer_phone = $1 and regexp_replace(upper(order_reference), '[^A-Z0-9]', '', 'g') = $2
        order by created_at desc limit 1`,
      [phone, code],
    );
    return rows[0];
  },
};
