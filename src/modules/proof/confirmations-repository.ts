import type { Queryable } from '../../platform/db/index.ts';
import type { ConfirmationState } from './domain/confirmation.ts';

export interface ConfirmationRow {
  order_id: string;
  state: ConfirmationState;
  courier_id: string | null;
  distance_m: number | null;
  position_at: Date | null;
  created_at: Date;
  texted_at: Date | null;
  decided_at: Date | null;
  decided_by: string | null;
  dispute_note: string | null;
}

const COLS =
  'order_id, state, courier_id, distance_m, position_at, created_at, texted_at, decided_at, decided_by, dispute_note';

/** SQL only: deliveries proved without the recipient's code, waiting for them (or an operator). */
export const confirmationsRepository = {
  /** Opens the order's confirmation, pending; a second call (a replayed delivery) changes nothing. */
  async open(
    tx: Queryable,
    row: {
      orderId: string;
      tokenHash: string;
      courierId: string;
      distanceM: number | null;
      positionAt: Date | null;
      now: Date;
    },
  ): Promise<void> {
    await tx.query(
      `insert into delivery_confirmations (order_id, token_hash, state, courier_id, distance_m, position_at, created_at)
       values ($1, $2, 'pending', $3, $4, $5, $6) on conflict (order_id) do nothing`,
      [row.orderId, row.tokenHash, row.courierId, row.distanceM, row.positionAt, row.now],
    );
  },

  /** Marks the text as sent once; answers whether this call did (so only one caller sends it). */
  async claimText(q: Queryable, orderId: string, now: Date): Promise<boolean> {
    const rows = await q.query(
      `update delivery_confirmations set texted_at = $2 where order_id = $1 and texted_at is null and state = 'pending' returning order_id`,
      [orderId, now],
    );
    return rows.length > 0;
  },

  async byToken(q: Queryable, tokenHash: string): Promise<ConfirmationRow | undefined> {
    return (
      await q.query<ConfirmationRow>(
        `select ${COLS} from delivery_confirmations where token_hash = $1`,
        [tokenHash],
      )
    )[0];
  },

  async get(q: Queryable, orderId: string): Promise<ConfirmationRow | undefined> {
    return (
      await q.query<ConfirmationRow>(
        `select ${COLS} from delivery_confirmations where order_id = $1`,
        [orderId],
      )
    )[0];
  },

  /** Moves the confirmation from one of `from` to `to` (a compare-and-set); undefined when it was not in `from`. */
  async decide(
    q: Queryable,
    orderId: string,
    from: readonly ConfirmationState[],
    to: ConfirmationState,
    by: string,
    now: Date,
    note: string | null,
  ): Promise<ConfirmationRow | undefined> {
    return (
      await q.query<ConfirmationRow>(
        `update delivery_confirmations set state = $3, decided_by = $4, decided_at = $5, dispute_note = coalesce($6, dispute_note)
          where order_id = $1 and state = any($2::text[]) returning ${COLS}`,
        [orderId, from, to, by, now, note],
      )
    )[0];
  },

  /** Pending and disputed confirmations, oldest first. */
  async waiting(q: Queryable, limit: number): Promise<ConfirmationRow[]> {
    return q.query<ConfirmationRow>(
      `select ${COLS} from delivery_confirmations where state in ('pending', 'disputed') order by created_at, order_id limit $1`,
      [limit],
    );
  },

  /** Those of these orders whose confirmation still waits (pending or disputed). */
  async waitingAmong(q: Queryable, orderIds: readonly string[]): Promise<string[]> {
    const rows = await q.query<{ order_id: string }>(
      `select order_id from delivery_confirmations where order_id = any($1::text[]) and state in ('pending', 'disputed')`,
      [orderIds],
    );
    return rows.map((r) => r.order_id);
  },
};
