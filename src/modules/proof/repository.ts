import type { Queryable } from '../../platform/db/index.ts';

export type ProofKind = 'code' | 'photo' | 'signature';
export type MediaKind = Exclude<ProofKind, 'code'>;

export interface ProofRow {
  id: string;
  order_id: string;
  kind: ProofKind;
  storage_key: string | null;
  content_type: string | null;
  size_bytes: number | null;
  courier_id: string | null;
  taken_at: Date;
  created_at: Date;
}

export interface CodeRow {
  order_id: string;
  code_hash: string;
  failed_attempts: number;
  issued_at: Date;
  verified_at: Date | null;
}

const PROOF_COLS =
  'id, order_id, kind, storage_key, content_type, size_bytes, courier_id, taken_at, created_at';

/**
 * What forOrder and the confirmation's state give, as one JSON value (null for an order without a
 * proof): a scalar subquery for the order whose id is the SQL expression `orderId`, which delivery's
 * read of the order carries (ProofReader.alongside), so that orders.get is one statement. Times are
 * epoch milliseconds; the confirmation is only looked up for an order that has a proof.
 */
export function proofJsonFor(orderId: string): string {
  return `(select case when count(*) = 0 then null else json_build_object(
      'rows', json_agg(json_build_object('id', p.id, 'kind', p.kind, 'content_type', p.content_type,
        'taken_at', floor(extract(epoch from p.taken_at) * 1000)) order by p.taken_at, p.id),
      'confirmation', (select c.state from delivery_confirmations c where c.order_id = ${orderId})) end
    from delivery_proofs p where p.order_id = ${orderId})`;
}

export const proofRepository = {
  /** Inserts the code unless the order has one; answers whether it was inserted. */
  async insertCode(q: Queryable, orderId: string, codeHash: string, now: Date): Promise<boolean> {
    const rows = await q.query(
      `insert into delivery_codes (order_id, code_hash, issued_at) values ($1, $2, $3) on conflict (order_id) do nothing returning order_id`,
      [orderId, codeHash, now],
    );
    return rows.length > 0;
  },

  /** A new code for the order, with its attempts counted afresh. */
  async replaceCode(q: Queryable, orderId: string, codeHash: string, now: Date): Promise<void> {
    await q.query(
      `insert into delivery_codes (order_id, code_hash, issued_at) values ($1, $2, $3)
       on conflict (order_id) do update set code_hash = excluded.code_hash, issued_at = excluded.issued_at, failed_attempts = 0, verified_at = null`,
      [orderId, codeHash, now],
    );
  },

  async lockCode(tx: Queryable, orderId: string): Promise<CodeRow | undefined> {
    return (
      await tx.query<CodeRow>(
        `select order_id, code_hash, failed_attempts, issued_at, verified_at from delivery_codes where order_id = $1 for update`,
        [orderId],
      )
    )[0];
  },

  async countFailure(tx: Queryable, orderId: string): Promise<number> {
    const rows = await tx.query<{ failed_attempts: number }>(
      `update delivery_codes set failed_attempts = failed_attempts + 1 where order_id = $1 returning failed_attempts`,
      [orderId],
    );
    return rows[0]!.failed_attempts;
  },

  async markVerified(tx: Queryable, orderId: string, now: Date): Promise<void> {
    await tx.query(`update delivery_codes set verified_at = $2 where order_id = $1`, [
      orderId,
      now,
    ]);
  },

  /** The code proof of the order; a second one (a replayed verification) is not inserted. */
  async insertCodeProof(
    tx: Queryable,
    row: { id: string; orderId: string; courierId: string | null; now: Date },
  ): Promise<void> {
    await tx.query(
      `insert into delivery_proofs (id, order_id, kind, courier_id, taken_at, created_at) values ($1, $2, 'code', $3, $4, $4) on conflict do nothing`,
      [row.id, row.orderId, row.courierId, row.now],
    );
  },

  /** The new row, or undefined when the order already has a proof under the same client id (a replayed upload). */
  /**
   * Inserts a photo or signature unless the order already has `cap` of them; undefined when it
   * was not inserted (the cap, or the same client id already stored). The cap is checked in the
   * insert's own statement after taking the order's advisory lock, so concurrent uploads of one
   * order queue on the lock and each counts the ones committed before it: never more than `cap`.
   * Run inside a transaction (the lock is held until it ends).
   */
  async insertMediaCapped(
    tx: Queryable,
    row: {
      id: string;
      orderId: string;
      kind: MediaKind;
      storageKey: string;
      contentType: string;
      size: number;
      courierId: string | null;
      clientId: string | null;
      takenAt: Date;
      now: Date;
    },
    cap: number,
  ): Promise<ProofRow | undefined> {
    await tx.query(`select pg_advisory_xact_lock(hashtextextended('delivery_proofs:' || $1, 0))`, [
      row.orderId,
    ]);
    const rows = await tx.query<ProofRow>(
      `insert into delivery_proofs (id, order_id, kind, storage_key, content_type, size_bytes, courier_id, client_id, taken_at, created_at)
       select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
        where (select count(*) from delivery_proofs where order_id = $2 and kind <> 'code') < $11
       on conflict (order_id, client_id) do nothing returning ${PROOF_COLS}`,
      [
        row.id,
        row.orderId,
        row.kind,
        row.storageKey,
        row.contentType,
        row.size,
        row.courierId,
        row.clientId,
        row.takenAt,
        row.now,
        cap,
      ],
    );
    return rows[0];
  },

  async countMedia(q: Queryable, orderId: string): Promise<number> {
    const rows = await q.query<{ n: number }>(
      `select count(*)::int as n from delivery_proofs where order_id = $1 and kind <> 'code'`,
      [orderId],
    );
    return rows[0]!.n;
  },

  async byClientId(q: Queryable, orderId: string, clientId: string): Promise<ProofRow | undefined> {
    return (
      await q.query<ProofRow>(
        `select ${PROOF_COLS} from delivery_proofs where order_id = $1 and client_id = $2`,
        [orderId, clientId],
      )
    )[0];
  },

  async forOrder(q: Queryable, orderId: string): Promise<ProofRow[]> {
    return q.query<ProofRow>(
      `select ${PROOF_COLS} from delivery_proofs where order_id = $1 order by taken_at, id`,
      [orderId],
    );
  },

  async get(q: Queryable, id: string): Promise<ProofRow | undefined> {
    return (
      await q.query<ProofRow>(`select ${PROOF_COLS} from delivery_proofs where id = $1`, [id])
    )[0];
  },
};
