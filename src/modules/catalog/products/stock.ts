import type { Queryable } from '../../../platform/db/index.ts';

/**
 * Stock moves of sales, each one statement. `reserved` counts units held by open sales; the
 * table's check (reserved <= stock) backs every move, so no code path can oversell.
 */
export const stockRepository = {
  /**
   * Holds `quantity` units if that many are free. The condition sits in the UPDATE itself: under
   * concurrency PostgreSQL re-checks it on the locked row, so of racing orders for the last units
   * exactly as many succeed as there are units.
   */
  async reserve(tx: Queryable, variantId: string, quantity: number, at: Date): Promise<boolean> {
    const rows = await tx.query(
      `update product_variants set reserved = reserved + $2, updated_at = $3
        where id = $1 and sellable and stock - reserved >= $2 returning id`,
      [variantId, quantity, at],
    );
    return rows.length > 0;
  },

  async available(db: Queryable, variantId: string): Promise<number> {
    const rows = await db.query<{ n: number }>(
      'select case when sellable then stock - reserved else 0 end as n from product_variants where id = $1',
      [variantId],
    );
    return rows[0]?.n ?? 0;
  },

  /** An open sale failed: its units are free again. */
  async release(tx: Queryable, variantId: string, quantity: number, at: Date): Promise<void> {
    await tx.query(
      'update product_variants set reserved = reserved - $2, updated_at = $3 where id = $1',
      [variantId, quantity, at],
    );
  },

  /** A sale was confirmed: its units leave the vendor's stock. */
  async commit(tx: Queryable, variantId: string, quantity: number, at: Date): Promise<void> {
    await tx.query(
      'update product_variants set stock = stock - $2, reserved = reserved - $2, updated_at = $3 where id = $1',
      [variantId, quantity, at],
    );
  },

  /** A confirmed sale failed afterwards (its delivery was cancelled): the units are back on the shelf. */
  async restock(tx: Queryable, variantId: string, quantity: number, at: Date): Promise<void> {
    await tx.query(
      'update product_variants set stock = stock + $2, updated_at = $3 where id = $1',
      [variantId, quantity, at],
    );
  },
};
