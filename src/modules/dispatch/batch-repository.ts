import type { Queryable } from '../../platform/db/index.ts';
import { JOB_COLS, OFFER_COLS, type JobRow, type OfferRow } from './repository.ts';

/** Two pickups this close (degrees of latitude and longitude, about 100 m in Ghana) are the same place: one pickup for a batch. */
export const SAME_PICKUP_DEG = 0.0009;

/** Multi-drop batches' SQL: the jobs that may ride together, a batch's offers, a drop moved along its route. */
export const batchRepository = {
  /** A batch's open offers in route order (`lock`: for an answer to them). */
  async batchOffers(q: Queryable, batchId: string, lock = false): Promise<OfferRow[]> {
    return q.query<OfferRow>(
      `select ${OFFER_COLS} from dispatch_offers where batch_id = $1 and state = 'open' order by stop${lock ? ' for update' : ''}`,
      [batchId],
    );
  },

  /**
   * Jobs that may ride in one batch with `job`: production jobs waiting and due now, in its zone,
   * collected at the same pickup, due within `windowMs` of it, with a known drop-off; oldest due first.
   */
  async companions(
    q: Queryable,
    job: JobRow,
    o: { now: Date; windowMs: number; limit: number },
  ): Promise<JobRow[]> {
    const due = job.due_at.getTime();
    return q.query<JobRow>(
      `select ${JOB_COLS} from dispatch_jobs
        where state = 'waiting' and environment = 'production' and order_id <> $1
          and due_at <= $2 and due_at between $3 and $4 and zone is not distinct from $5
          and pickup_lat between $6 and $7 and pickup_lng between $8 and $9
          and dropoff_lat is not null and dropoff_lng is not null
        order by due_at, order_id limit $10`,
      [
        job.order_id,
        o.now,
        new Date(due - o.windowMs),
        new Date(due + o.windowMs),
        job.zone,
        job.pickup_lat! - SAME_PICKUP_DEG,
        job.pickup_lat! + SAME_PICKUP_DEG,
        job.pickup_lng! - SAME_PICKUP_DEG,
        job.pickup_lng! + SAME_PICKUP_DEG,
        o.limit,
      ],
    );
  },

  /** Which of these jobs the courier must not be offered again (notAgain's rule, for one courier). */
  async notAgainAmong(
    q: Queryable,
    orderIds: readonly string[],
    courierId: string,
    pausedSince: Date,
  ): Promise<string[]> {
    return (
      await q.query<{ order_id: string }>(
        `select distinct order_id from dispatch_offers
          where order_id = any($1) and courier_id = $2 and (state <> 'expired' or answered_at > $3)`,
        [orderIds, courierId, pausedSince],
      )
    ).map((r) => r.order_id);
  },

  /** A batch's drop that could not be delivered and goes out again: to the end of the courier's route. */
  async toRouteEnd(tx: Queryable, assignmentId: string, batchId: string): Promise<void> {
    await tx.query(
      `update dispatch_assignments set stop = (select max(stop) + 1 from dispatch_assignments where batch_id = $2 and ended_at is null)
        where id = $1`,
      [assignmentId, batchId],
    );
  },
};
