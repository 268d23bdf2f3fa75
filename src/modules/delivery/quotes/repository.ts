import type { Environment } from '../../../platform/auth/scopes.ts';
import type { Queryable } from '../../../platform/db/index.ts';

export interface QuoteRow {
  id: string;
  app_id: string;
  environment: Environment;
  pickup_lat: number;
  pickup_lng: number;
  dropoff_lat: number;
  dropoff_lng: number;
  fee_pesewas: number;
  created_at: Date;
  expires_at: Date;
  /** The test clock whose time the quote was issued in (its expiry is in that time). */
  test_clock_id: string | null;
}

/** A quote with the order that redeemed it, if any. */
export interface QuoteWithUse extends QuoteRow {
  used_by: string | null;
  used_reference: string | null;
}

export const quotesRepository = {
  async insert(q: Queryable, row: QuoteRow): Promise<void> {
    await q.query(
      `insert into delivery_quotes (id, app_id, environment, pickup_lat, pickup_lng, dropoff_lat, dropoff_lng, fee_pesewas, created_at, expires_at, test_clock_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        row.id,
        row.app_id,
        row.environment,
        row.pickup_lat,
        row.pickup_lng,
        row.dropoff_lat,
        row.dropoff_lng,
        row.fee_pesewas,
        row.created_at,
        row.expires_at,
        row.test_clock_id,
      ],
    );
  },

  async find(q: Queryable, id: string): Promise<QuoteWithUse | undefined> {
    const rows = await q.query<QuoteWithUse>(
      `select q.id, q.app_id, q.environment, q.pickup_lat, q.pickup_lng, q.dropoff_lat, q.dropoff_lng,
              q.fee_pesewas, q.created_at, q.expires_at, q.test_clock_id, o.id as used_by, o.order_reference as used_reference
         from delivery_quotes q left join delivery_orders o on o.quote_id = q.id
        where q.id = $1`,
      [id],
    );
    return rows[0];
  },

  /**
   * Deletes up to `limit` quotes that expired before `before` and no order redeemed; answers how
   * many. A test clock's quotes expire in its time, not this one, so they are kept.
   */
  async sweep(q: Queryable, before: Date, limit: number): Promise<number> {
    const rows = await q.query<{ id: string }>(
      `delete from delivery_quotes where id in (
         select q.id from delivery_quotes q
          where q.expires_at < $1 and q.test_clock_id is null and not exists (select 1 from delivery_orders o where o.quote_id = q.id)
          order by q.expires_at limit $2)
       returning id`,
      [before, limit],
    );
    return rows.length;
  },
};
