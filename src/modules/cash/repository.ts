import type { Queryable } from '../../platform/db/index.ts';

export interface CourierCashRow {
  courier_id: string;
  balance_pesewas: number;
  updated_at: Date;
}

export interface HandoverRow {
  id: string;
  courier_id: string;
  amount_pesewas: number;
  recorded_by: string;
  created_at: Date;
}

export const cashRepository = {
  /** Adds to a courier's cash to hand in (creating the row on the first collection). */
  async collect(tx: Queryable, courierId: string, amount: number, at: Date): Promise<void> {
    await tx.query(
      `insert into courier_cash (courier_id, balance_pesewas, updated_at) values ($1, $2, $3)
       on conflict (courier_id) do update set balance_pesewas = courier_cash.balance_pesewas + excluded.balance_pesewas, updated_at = excluded.updated_at`,
      [courierId, amount, at],
    );
  },

  /** Takes a handover off the balance only when the balance covers it; false when it does not. */
  async handIn(tx: Queryable, courierId: string, amount: number, at: Date): Promise<boolean> {
    const rows = await tx.query(
      'update courier_cash set balance_pesewas = balance_pesewas - $2, updated_at = $3 where courier_id = $1 and balance_pesewas >= $2 returning courier_id',
      [courierId, amount, at],
    );
    return rows.length > 0;
  },

  /** Takes up to `amount` off a courier's cash, under the row's lock; answers what it took. */
  async takeUpTo(tx: Queryable, courierId: string, amount: number, at: Date): Promise<number> {
    const rows = await tx.query<{ taken: number }>(
      `with held as (select courier_id, least(balance_pesewas, $2) as taken from courier_cash where courier_id = $1 for update)
       update courier_cash c set balance_pesewas = c.balance_pesewas - held.taken, updated_at = $3
         from held where c.courier_id = held.courier_id returning held.taken::int as taken`,
      [courierId, amount, at],
    );
    return rows[0]?.taken ?? 0;
  },

  async insertHandover(tx: Queryable, h: HandoverRow): Promise<void> {
    await tx.query(
      'insert into courier_cash_handovers (id, courier_id, amount_pesewas, recorded_by, created_at) values ($1, $2, $3, $4, $5)',
      [h.id, h.courier_id, h.amount_pesewas, h.recorded_by, h.created_at],
    );
  },

  async balance(db: Queryable, courierId: string): Promise<number> {
    return (
      (
        await db.query<{ balance_pesewas: number }>(
          'select balance_pesewas from courier_cash where courier_id = $1',
          [courierId],
        )
      )[0]?.balance_pesewas ?? 0
    );
  },

  /** Couriers who ever collected cash, those holding the most first. */
  async balances(db: Queryable, limit: number): Promise<CourierCashRow[]> {
    return db.query<CourierCashRow>(
      'select courier_id, balance_pesewas, updated_at from courier_cash order by balance_pesewas desc, courier_id limit $1',
      [limit],
    );
  },

  async handovers(
    db: Queryable,
    courierId: string | undefined,
    limit: number,
  ): Promise<HandoverRow[]> {
    return db.query<HandoverRow>(
      `select id, courier_id, amount_pesewas, recorded_by, created_at from courier_cash_handovers
        where ($1::text is null or courier_id = $1) order by created_at desc, id desc limit $2`,
      [courierId ?? null, limit],
    );
  },
};
