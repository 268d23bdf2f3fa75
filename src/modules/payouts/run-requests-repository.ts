import type { Queryable } from '../../platform/db/index.ts';

/** A same-day run asked for by a courier cash handover (one per handover). */
export interface RunRequestRow {
  handover_id: string;
  courier_id: string;
  handed_over_at: Date;
  requested_at: Date;
  next_attempt_at: Date | null;
  attempts: number;
  last_error: string | null;
  done_at: Date | null;
  run_id: string | null;
}

/** SQL only: the payout_run_requests table. */
export const runRequestsRepository = {
  /** In the handover's transaction: due at once. A handover asks once (its id is the key). */
  async insert(
    tx: Queryable,
    r: { handoverId: string; courierId: string; handedOverAt: Date; at: Date },
  ): Promise<void> {
    await tx.query(
      `insert into payout_run_requests (handover_id, courier_id, handed_over_at, requested_at, next_attempt_at) values ($1, $2, $3, $4, $4)
       on conflict (handover_id) do nothing`,
      [r.handoverId, r.courierId, r.handedOverAt, r.at],
    );
  },

  /**
   * Takes open requests whose next attempt is due (only `handoverId`'s when given), earliest first, and
   * leases them: their next attempt moves to `leaseUntil`, so another instance skips them while this one
   * runs them, and a crash leaves them due again once the lease has passed.
   */
  async lease(
    tx: Queryable,
    now: Date,
    leaseUntil: Date,
    limit: number,
    handoverId?: string,
  ): Promise<RunRequestRow[]> {
    return tx.query<RunRequestRow>(
      `update payout_run_requests set next_attempt_at = $2, attempts = attempts + 1
        where handover_id in (select handover_id from payout_run_requests
                               where done_at is null and next_attempt_at <= $1 and ($4::text is null or handover_id = $4)
                               order by next_attempt_at, handover_id limit $3 for update skip locked)
        returning *`,
      [now, leaseUntil, limit, handoverId ?? null],
    );
  },

  async done(tx: Queryable, handoverId: string, runId: string | null, at: Date): Promise<void> {
    await tx.query(
      'update payout_run_requests set done_at = $2, next_attempt_at = null, run_id = $3, last_error = null where handover_id = $1',
      [handoverId, at, runId],
    );
  },

  async failed(
    tx: Queryable,
    handoverId: string,
    error: string,
    nextAttemptAt: Date,
  ): Promise<void> {
    await tx.query(
      'update payout_run_requests set last_error = $2, next_attempt_at = $3 where handover_id = $1 and done_at is null',
      [handoverId, error.slice(0, 500), nextAttemptAt],
    );
  },

  /** The run an earlier attempt made for the handover, if it made one before it stopped. */
  async runOf(db: Queryable, handoverId: string): Promise<string | null> {
    return (
      (
        await db.query<{ id: string }>('select id from payout_runs where handover_id = $1', [
          handoverId,
        ])
      )[0]?.id ?? null
    );
  },

  async find(db: Queryable, handoverId: string): Promise<RunRequestRow | undefined> {
    return (
      await db.query<RunRequestRow>('select * from payout_run_requests where handover_id = $1', [
        handoverId,
      ])
    )[0];
  },
};
