/**
 * Another module's read about an order, run inside delivery's own statement that reads the order
 * (a scalar subquery in its select list), so that the answer takes one round trip. `column(orderId)`
 * is a SQL expression of the other module's, over its own tables, for the order whose id is the SQL
 * expression `orderId`; `read` turns the column's value into the answer. Delivery never names the
 * other module's tables, and the other module never names delivery's.
 */
export interface ReadAlongside<T> {
  column(orderId: string): string;
  read(value: unknown): T;
}
