import type { Queryable } from '../../platform/db/index.ts';
import type { Stage } from './domain/actions.ts';

export type JobState = 'waiting' | 'offered' | 'assigned' | 'closed';

export interface JobRow {
  order_id: string;
  environment: 'staging' | 'production';
  pickup_lat: number | null;
  pickup_lng: number | null;
  zone: string | null;
  state: JobState;
  late_at: Date | null;
  created_at: Date;
  /** From when the job may be offered (its placement, or its window's ready time less the lead). */
  due_at: Date;
  dropoff_deadline: Date | null;
  /** When the job was found to miss its window (delivery.order.late sent then). */
  window_missed_at: Date | null;
  dropoff_lat: number | null;
  dropoff_lng: number | null;
  /** When the parcel is ready at the pickup (null: when placed). */
  pickup_ready_at: Date | null;
}

/** A multi-drop batch's mark on an offer or assignment: the batch (its first offer's id) and the drop's place in its route. */
export interface BatchMark {
  batch_id: string | null;
  stop: number | null;
}

export interface OfferRow {
  id: string;
  order_id: string;
  courier_id: string;
  state: 'open' | 'accepted' | 'declined' | 'expired' | 'withdrawn';
  expires_at: Date;
  batch_id: string | null;
  stop: number | null;
}

export interface AssignmentRow extends BatchMark {
  id: string;
  order_id: string;
  courier_id: string;
  stage: Stage;
  source: 'offer' | 'operator';
  started_at: Date;
}

/** One line of the dispatch board: an open job with its open offer or active assignment. */
export interface BoardRow extends JobRow, BatchMark {
  offer_courier_id: string | null;
  offer_expires_at: Date | null;
  courier_id: string | null;
  stage: Stage | null;
}

/** New jobs notify this channel after their commit: the dispatch worker wakes instead of waiting for its poll. */
export const DISPATCH_CHANNEL = 'dispatch_jobs';

export const JOB_COLS =
  'order_id, environment, pickup_lat, pickup_lng, zone, state, late_at, created_at, due_at, dropoff_deadline, window_missed_at, dropoff_lat, dropoff_lng, pickup_ready_at';
export const OFFER_COLS = 'id, order_id, courier_id, state, expires_at, batch_id, stop';
const ASSIGNMENT_COLS = 'id, order_id, courier_id, stage, source, started_at, batch_id, stop';

/** The job is on test clock `$n` (null: on none; a clock's jobs move only when it advances). */
const ON_CLOCK = (column: string, n: number) => `${column} is not distinct from $${n}::text`;
/** The same, for a row of `table` about a job (an offer, an assignment). */
const ON_CLOCKS_JOB = (table: string, n: number) =>
  `exists (select 1 from dispatch_jobs j where j.order_id = ${table}.order_id and ${ON_CLOCK('j.test_clock_id', n)})`;

export const dispatchRepository = {
  /** The insert of a new order's waiting job, as a statement joined to the order's own insert (parameters from `first`). */
  insertJobStatement(
    job: {
      orderId: string;
      environment: string;
      lat: number | null;
      lng: number | null;
      dropoff: { lat: number; lng: number } | null;
      zone: string | null;
      now: Date;
      dueAt: Date;
      dropoffDeadline: Date | null;
      missAt: Date | null;
      pickupReadyAt: Date | null;
      /** The sandbox test clock the order lives on: only its advances move the job. */
      testClockId?: string | null;
    },
    first: number,
  ): { sql: string; params: unknown[]; notify: string } {
    const $ = (i: number) => `$${first + i}`;
    return {
      sql: `insert into dispatch_jobs (order_id, environment, pickup_lat, pickup_lng, dropoff_lat, dropoff_lng, zone, state, created_at, updated_at, due_at, dropoff_deadline, miss_at, pickup_ready_at, test_clock_id)
       values (${$(0)}, ${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}, ${$(5)}, ${$(6)}, 'waiting', ${$(7)}, ${$(7)}, ${$(8)}, ${$(9)}, ${$(10)}, ${$(11)}, ${$(12)}) on conflict do nothing`,
      params: [
        job.orderId,
        job.environment,
        job.lat,
        job.lng,
        job.dropoff?.lat ?? null,
        job.dropoff?.lng ?? null,
        job.zone,
        job.now,
        job.dueAt,
        job.dropoffDeadline,
        job.missAt,
        job.pickupReadyAt,
        job.testClockId ?? null,
      ],
      // The dispatch worker offers the job as soon as the order commits (a scheduled one at its round once due).
      notify: DISPATCH_CHANNEL,
    };
  },

  async job(q: Queryable, orderId: string, lock = false): Promise<JobRow | undefined> {
    return (
      await q.query<JobRow>(
        `select ${JOB_COLS} from dispatch_jobs where order_id = $1${lock ? ' for update' : ''}`,
        [orderId],
      )
    )[0];
  },

  /**
   * Production jobs waiting for an offer and due by `now`, longest due first (staging's go to the
   * sandbox courier). A job scheduled for later is not read (dispatch_jobs_due_idx).
   */
  async waiting(q: Queryable, now: Date, limit: number): Promise<JobRow[]> {
    return q.query<JobRow>(
      `select ${JOB_COLS} from dispatch_jobs where state = 'waiting' and environment = 'production' and due_at <= $1 order by due_at limit $2`,
      [now, limit],
    );
  },

  /**
   * Jobs of these environments due before `before` still waiting, longest due first (the sandbox
   * courier's next offers): those of one test clock, or (null) those on none.
   */
  async waitingIn(
    q: Queryable,
    environments: readonly string[],
    before: Date,
    limit: number,
    clockId: string | null = null,
  ): Promise<JobRow[]> {
    return q.query<JobRow>(
      `select ${JOB_COLS} from dispatch_jobs where state = 'waiting' and environment = any($1) and due_at < $2
          and ${ON_CLOCK('test_clock_id', 4)} order by due_at limit $3`,
      [environments, before, limit, clockId],
    );
  },

  async setState(
    tx: Queryable,
    orderId: string,
    from: readonly JobState[],
    to: JobState,
    now: Date,
  ): Promise<boolean> {
    const rows = await tx.query(
      `update dispatch_jobs set state = $3, updated_at = $4, late_at = case when $3 = 'assigned' then null else late_at end
       where order_id = $1 and state = any($2) returning order_id`,
      [orderId, from, to, now],
    );
    return rows.length > 0;
  },

  /** Marks jobs still without a courier since they fell due before `before` late; answers the newly late ones. */
  async markLate(q: Queryable, before: Date, now: Date): Promise<string[]> {
    const rows = await q.query<{ order_id: string }>(
      `update dispatch_jobs set late_at = $2 where state in ('waiting', 'offered') and environment = 'production' and late_at is null and due_at <= $1 returning order_id`,
      [before, now],
    );
    return rows.map((r) => r.order_id);
  },

  /**
   * Unassigned jobs that nobody can take in time for their deadline any more, not yet flagged
   * (dispatch_jobs_miss_idx): those of one test clock, or (null) those on none.
   */
  async missing(
    q: Queryable,
    now: Date,
    limit: number,
    clockId: string | null = null,
  ): Promise<string[]> {
    const rows = await q.query<{ order_id: string }>(
      `select order_id from dispatch_jobs where miss_at is not null and window_missed_at is null and state in ('waiting', 'offered') and miss_at <= $1
          and ${ON_CLOCK('test_clock_id', 3)} order by miss_at limit $2`,
      [now, limit, clockId],
    );
    return rows.map((r) => r.order_id);
  },

  /**
   * Flags the job as missing its window, once (compare-and-set): true for the one caller that flagged
   * it. `unassigned`: only while nobody holds it (the sweep; a courier may have just accepted).
   */
  async flagMissed(
    tx: Queryable,
    orderId: string,
    now: Date,
    unassigned: boolean,
  ): Promise<boolean> {
    const rows = await tx.query(
      `update dispatch_jobs set window_missed_at = $2, updated_at = $2
        where order_id = $1 and window_missed_at is null and dropoff_deadline is not null
          and state <> 'closed' and (not $3 or state in ('waiting', 'offered')) returning order_id`,
      [orderId, now, unassigned],
    );
    return rows.length > 0;
  },

  async lateCount(q: Queryable): Promise<number> {
    return (
      await q.query<{ n: number }>(
        `select count(*)::int as n from dispatch_jobs where state in ('waiting', 'offered') and environment = 'production' and late_at is not null`,
      )
    )[0]!.n;
  },

  /**
   * Couriers not to offer the job again: those who declined it or were offered it otherwise, except
   * those whose offer expired unanswered before `pausedSince` (they may be offered it once more).
   */
  async notAgain(q: Queryable, orderId: string, pausedSince: Date): Promise<string[]> {
    return (
      await q.query<{ courier_id: string }>(
        `select distinct courier_id from dispatch_offers
          where order_id = $1 and (state <> 'expired' or answered_at > $2)`,
        [orderId, pausedSince],
      )
    ).map((r) => r.courier_id);
  },

  /** Couriers busy now: holding a job (an assignment not ended) or an offer not yet answered. */
  async busy(q: Queryable): Promise<string[]> {
    const rows = await q.query<{ courier_id: string }>(
      `select courier_id from dispatch_assignments where ended_at is null
       union select courier_id from dispatch_offers where state = 'open'`,
    );
    return rows.map((r) => r.courier_id);
  },

  async insertOffer(
    tx: Queryable,
    o: {
      id: string;
      orderId: string;
      courierId: string;
      now: Date;
      expiresAt: Date;
      batchId?: string | null;
      stop?: number | null;
    },
  ): Promise<void> {
    await tx.query(
      `insert into dispatch_offers (id, order_id, courier_id, state, offered_at, expires_at, batch_id, stop) values ($1, $2, $3, 'open', $4, $5, $6, $7)`,
      [o.id, o.orderId, o.courierId, o.now, o.expiresAt, o.batchId ?? null, o.stop ?? null],
    );
  },

  async openOffer(tx: Queryable, orderId: string): Promise<OfferRow | undefined> {
    return (
      await tx.query<OfferRow>(
        `select ${OFFER_COLS} from dispatch_offers where order_id = $1 and state = 'open' for update`,
        [orderId],
      )
    )[0];
  },

  async answerOffer(
    tx: Queryable,
    id: string,
    state: 'accepted' | 'declined',
    now: Date,
  ): Promise<void> {
    await tx.query(
      `update dispatch_offers set state = $2, answered_at = $3 where id = $1 and state = 'open'`,
      [id, state, now],
    );
  },

  /**
   * Expires the offers whose time is up and puts their jobs back to waiting for the next courier;
   * answers whose offers they were. One statement, atomic without a transaction: the dispatcher's
   * every round runs it, mostly to find nothing.
   */
  async expireOffers(q: Queryable, now: Date): Promise<string[]> {
    const rows = await q.query<{ courier_id: string }>(
      `with gone as (
         update dispatch_offers set state = 'expired', answered_at = $1
         where state = 'open' and expires_at <= $1 returning order_id, courier_id),
       reopened as (
         update dispatch_jobs set state = 'waiting', updated_at = $1
         where order_id in (select order_id from gone) and state = 'offered')
       select courier_id from gone`,
      [now],
    );
    return rows.map((r) => r.courier_id);
  },

  /** The couriers an order's job shows on now: its holder and the one it is offered to. */
  async concerned(q: Queryable, orderId: string): Promise<string[]> {
    const rows = await q.query<{ courier_id: string }>(
      `select courier_id from dispatch_assignments where order_id = $1 and ended_at is null
       union select courier_id from dispatch_offers where order_id = $1 and state = 'open'`,
      [orderId],
    );
    return rows.map((r) => r.courier_id);
  },

  async withdrawOffers(tx: Queryable, orderId: string, now: Date): Promise<void> {
    await tx.query(
      `update dispatch_offers set state = 'withdrawn', answered_at = $2 where order_id = $1 and state = 'open'`,
      [orderId, now],
    );
  },

  /**
   * Who carries (or carried to its end) an order, and its job's zone: the open assignment, else the
   * latest finished one (a delivered order's ended in the same move). Reassigned ones are not theirs.
   */
  async carrier(
    q: Queryable,
    orderId: string,
  ): Promise<{ courier_id: string; zone: string | null } | undefined> {
    return (
      await q.query<{ courier_id: string; zone: string | null }>(
        `select a.courier_id, j.zone from dispatch_assignments a join dispatch_jobs j on j.order_id = a.order_id
          where a.order_id = $1 and (a.ended_at is null or a.end_reason = 'finished')
          order by a.started_at desc, a.id desc limit 1`,
        [orderId],
      )
    )[0];
  },

  async activeAssignment(tx: Queryable, orderId: string): Promise<AssignmentRow | undefined> {
    return (
      await tx.query<AssignmentRow>(
        `select ${ASSIGNMENT_COLS} from dispatch_assignments where order_id = $1 and ended_at is null for update`,
        [orderId],
      )
    )[0];
  },

  async insertAssignment(
    tx: Queryable,
    a: {
      id: string;
      orderId: string;
      courierId: string;
      stage: Stage;
      source: 'offer' | 'operator';
      now: Date;
      batchId?: string | null;
      stop?: number | null;
    },
  ): Promise<void> {
    await tx.query(
      `insert into dispatch_assignments (id, order_id, courier_id, stage, source, started_at, updated_at, batch_id, stop) values ($1, $2, $3, $4, $5, $6, $6, $7, $8)`,
      [a.id, a.orderId, a.courierId, a.stage, a.source, a.now, a.batchId ?? null, a.stop ?? null],
    );
  },

  async setStage(tx: Queryable, id: string, stage: Stage, now: Date): Promise<void> {
    await tx.query('update dispatch_assignments set stage = $2, updated_at = $3 where id = $1', [
      id,
      stage,
      now,
    ]);
  },

  /** Sets the stage of the order's active assignment, if it has one. */
  async setActiveStage(tx: Queryable, orderId: string, stage: Stage, now: Date): Promise<void> {
    await tx.query(
      'update dispatch_assignments set stage = $2, updated_at = $3 where order_id = $1 and ended_at is null',
      [orderId, stage, now],
    );
  },

  async endAssignment(
    tx: Queryable,
    orderId: string,
    reason: 'finished' | 'reassigned' | 'cancelled',
    now: Date,
  ): Promise<void> {
    await tx.query(
      'update dispatch_assignments set ended_at = $2, end_reason = $3, updated_at = $2 where order_id = $1 and ended_at is null',
      [orderId, now, reason],
    );
  },

  /** The jobs the courier holds now, oldest first, a batch's in route order. */
  async heldBy(q: Queryable, courierId: string): Promise<AssignmentRow[]> {
    return q.query<AssignmentRow>(
      `select ${ASSIGNMENT_COLS} from dispatch_assignments where courier_id = $1 and ended_at is null order by started_at, stop, id`,
      [courierId],
    );
  },

  /** Each courier's newest open offer not yet expired (what the courier app's push tells of). */
  async newestOpenOffers(q: Queryable, now: Date): Promise<Array<OfferRow & { drops: number }>> {
    return q.query<OfferRow & { drops: number }>(
      `select distinct on (courier_id) ${OFFER_COLS},
              (select count(*)::int from dispatch_offers b where b.batch_id = o.batch_id and b.state = 'open') as drops
         from dispatch_offers o
        where state = 'open' and expires_at > $1 order by courier_id, offered_at desc, id desc`,
      [now],
    );
  },

  /** Every open offer to the courier, oldest first (the sandbox courier answers them all), of one test clock's jobs or (null) of the others. */
  async openOffersTo(
    q: Queryable,
    courierId: string,
    limit: number,
    clockId: string | null = null,
  ): Promise<OfferRow[]> {
    return q.query<OfferRow>(
      `select ${OFFER_COLS} from dispatch_offers where courier_id = $1 and state = 'open'
          and ${ON_CLOCKS_JOB('dispatch_offers', 3)} order by expires_at limit $2`,
      [courierId, limit, clockId],
    );
  },

  /** The courier's jobs whose stage last changed before `before`, oldest first (the sandbox courier's due steps), of one test clock or (null) of none. */
  async heldSince(
    q: Queryable,
    courierId: string,
    before: Date,
    limit: number,
    clockId: string | null = null,
  ): Promise<AssignmentRow[]> {
    return q.query<AssignmentRow>(
      `select ${ASSIGNMENT_COLS} from dispatch_assignments
        where courier_id = $1 and ended_at is null and updated_at < $2
          and ${ON_CLOCKS_JOB('dispatch_assignments', 4)} order by updated_at limit $3`,
      [courierId, before, limit, clockId],
    );
  },

  async openOfferFor(q: Queryable, courierId: string, now: Date): Promise<OfferRow | undefined> {
    return (
      await q.query<OfferRow>(
        `select ${OFFER_COLS} from dispatch_offers where courier_id = $1 and state = 'open' and expires_at > $2 order by expires_at, stop limit 1`,
        [courierId, now],
      )
    )[0];
  },

  /** Open jobs with their open offer and active assignment, late ones (and those missing their window) first, then oldest. */
  async board(q: Queryable, limit: number): Promise<BoardRow[]> {
    return q.query<BoardRow>(
      `select j.order_id, j.environment, j.pickup_lat, j.pickup_lng, j.zone, j.state, j.late_at, j.created_at,
              j.due_at, j.dropoff_deadline, j.window_missed_at, j.dropoff_lat, j.dropoff_lng, j.pickup_ready_at,
              o.courier_id as offer_courier_id, o.expires_at as offer_expires_at, a.courier_id, a.stage,
              coalesce(a.batch_id, o.batch_id) as batch_id, coalesce(a.stop, o.stop) as stop
         from dispatch_jobs j
         left join dispatch_offers o on o.order_id = j.order_id and o.state = 'open'
         left join dispatch_assignments a on a.order_id = j.order_id and a.ended_at is null
        where j.state <> 'closed' and j.environment = 'production'
        order by j.late_at is null and j.window_missed_at is null, j.created_at limit $1`,
      [limit],
    );
  },
};
