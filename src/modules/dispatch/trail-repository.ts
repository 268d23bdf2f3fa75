import { type Queryable, WITHOUT_FLUSH_WAIT } from '../../platform/db/index.ts';
import type { LatLng } from '../../shared/ghana/index.ts';
import type { Stage } from './domain/actions.ts';

/** A job the reporting courier holds, with its stops. */
export interface HeldJob {
  order_id: string;
  stage: Stage;
  pickup_lat: number | null;
  pickup_lng: number | null;
  dropoff_lat: number | null;
  dropoff_lng: number | null;
  dropoff_deadline: Date | null;
  window_missed_at: Date | null;
  /** When the order's last location event was claimed (null: none yet). */
  location_sent_at: Date | null;
  /** The drop-offs of its batch the courier makes before this one, in route order (null: none). */
  before: LatLng[] | string | null;
}

/** A held job with its place in its batch (the position report's read: which drop is the courier's now). */
export type HeldStop = HeldJob & { batch_id: string | null; stop: number | null };

export interface TrailPoint {
  lat: number;
  lng: number;
  at: Date;
}

/**
 * The drop-offs of the batch of assignment `a` that come before it, as a JSON array of points: its
 * batch's other active drops with a lower stop, not those going back to the pickup (a failed drop's
 * return waits for the others). Read through the courier's active assignments (their index).
 */
const BEFORE = `case when a.batch_id is null then null else (
  select json_agg(json_build_object('lat', bj.dropoff_lat, 'lng', bj.dropoff_lng) order by b.stop)
    from dispatch_assignments b join dispatch_jobs bj on bj.order_id = b.order_id
   where b.courier_id = a.courier_id and b.ended_at is null and b.batch_id = a.batch_id
     and b.stop < a.stop and b.stage <> 'returning'
     and bj.dropoff_lat is not null and bj.dropoff_lng is not null) end`;

const STOPS = `j.pickup_lat, j.pickup_lng, j.dropoff_lat, j.dropoff_lng, j.dropoff_deadline, j.window_missed_at,
  j.location_sent_at, ${BEFORE} as before`;

/**
 * held() and newest() as one JSON value (null when no courier holds the order's job): a scalar
 * subquery for the order whose id is the SQL expression `orderId`, which delivery's read of the
 * order carries (CourierTracker.alongside), so that orders.track is one statement. `at` is epoch ms.
 */
export function heldJsonFor(orderId: string): string {
  return `(select json_build_object('order_id', a.order_id, 'stage', a.stage, 'courier_id', a.courier_id,
      'pickup_lat', j.pickup_lat, 'pickup_lng', j.pickup_lng, 'dropoff_lat', j.dropoff_lat, 'dropoff_lng', j.dropoff_lng,
      'before', ${BEFORE},
      'point', (select json_build_object('lat', t.lat, 'lng', t.lng, 'at', floor(extract(epoch from t.at) * 1000))
                  from dispatch_trail t where t.order_id = a.order_id order by t.at desc limit 1))
    from dispatch_assignments a join dispatch_jobs j on j.order_id = a.order_id
    where a.order_id = ${orderId} and a.ended_at is null limit 1)`;
}

export const trailRepository = {
  /** Whether the courier whose id is the SQL expression `courierId` holds a job: an expression, one index probe. */
  holdsJobColumn(courierId: string): string {
    return `exists (select 1 from dispatch_assignments a where a.courier_id = ${courierId} and a.ended_at is null)`;
  },

  /** The jobs the courier holds now (a courier may carry several), oldest first as dispatch's own read. */
  async heldBy(q: Queryable, courierId: string): Promise<HeldStop[]> {
    return q.query<HeldStop>(
      `select a.order_id, a.stage, a.batch_id, a.stop, ${STOPS}
         from dispatch_assignments a join dispatch_jobs j on j.order_id = a.order_id
        where a.courier_id = $1 and a.ended_at is null order by a.started_at, a.stop, a.id`,
      [courierId],
    );
  },

  /** The active job of an order with its holder, if a courier holds it. */
  async held(
    q: Queryable,
    orderId: string,
  ): Promise<(HeldJob & { courier_id: string }) | undefined> {
    return (
      await q.query<HeldJob & { courier_id: string }>(
        `select a.order_id, a.stage, a.courier_id, ${STOPS} from dispatch_assignments a join dispatch_jobs j on j.order_id = a.order_id
          where a.order_id = $1 and a.ended_at is null`,
        [orderId],
      )
    )[0];
  },

  /** The active jobs of several orders with their holders (the tracking pages' one read). */
  async heldMany(
    q: Queryable,
    orderIds: readonly string[],
  ): Promise<(HeldJob & { courier_id: string })[]> {
    return q.query<HeldJob & { courier_id: string }>(
      `select a.order_id, a.stage, a.courier_id, ${STOPS} from dispatch_assignments a join dispatch_jobs j on j.order_id = a.order_id
        where a.order_id = any($1) and a.ended_at is null`,
      [orderIds],
    );
  },

  async newestMany(
    q: Queryable,
    orderIds: readonly string[],
  ): Promise<(TrailPoint & { order_id: string })[]> {
    return q.query<TrailPoint & { order_id: string }>(
      'select distinct on (order_id) order_id, lat, lng, at from dispatch_trail where order_id = any($1) order by order_id, at desc',
      [orderIds],
    );
  },

  /**
   * Adds the point and trims the trail to its newest `keep` points, in one statement (atomic by
   * itself). The trim reads the trail as it was before the insert (one snapshot): it keeps the
   * newest `keep` - 1 of those, and the new point makes `keep`. Its commit does not wait for the
   * WAL flush: run it on its own, never inside a transaction (whose whole commit it would relax).
   * The job's row is share-locked first, as the transaction ending the job locks it before deleting
   * the trail: taken last (by the foreign key's check), the two deadlocked under load.
   */
  async add(q: Queryable, orderId: string, point: TrailPoint, keep: number): Promise<void> {
    await q.query(
      `with job as (select 1 from dispatch_jobs where order_id = $1 for key share),
            added as (insert into dispatch_trail (order_id, lat, lng, at)
                      select $1, $2::double precision, $3::double precision, $4::timestamptz from job
                      returning ${WITHOUT_FLUSH_WAIT})
       delete from dispatch_trail where order_id = $1 and exists (select from job)
          and at < (select at from dispatch_trail where order_id = $1 order by at desc offset $5 limit 1)`,
      [orderId, point.lat, point.lng, point.at, keep - 2],
    );
  },

  async newest(q: Queryable, orderId: string): Promise<TrailPoint | undefined> {
    return (
      await q.query<TrailPoint>(
        'select lat, lng, at from dispatch_trail where order_id = $1 order by at desc limit 1',
        [orderId],
      )
    )[0];
  },

  /**
   * Claims the order's next location event: its sequence (1, 2, …), with the time moved to `now`,
   * only when none was sent in the last `everyMs`. One conditional statement, so two instances
   * never both send.
   */
  async claimLocationEvent(
    tx: Queryable,
    orderId: string,
    now: Date,
    everyMs: number,
  ): Promise<number | undefined> {
    const rows = await tx.query<{ location_events: number }>(
      `update dispatch_jobs set location_sent_at = $2, location_events = location_events + 1
        where order_id = $1 and (location_sent_at is null or location_sent_at <= $3) returning location_events`,
      [orderId, now, new Date(now.getTime() - everyMs)],
    );
    return rows[0]?.location_events;
  },

  /** Deletes an ended job's points, in the transaction that ends it (positions are never shown after). */
  async forget(tx: Queryable, orderId: string): Promise<void> {
    await tx.query('delete from dispatch_trail where order_id = $1', [orderId]);
  },

  /** Deletes up to `limit` points older than `before`, oldest first; answers how many. */
  async prune(q: Queryable, before: Date, limit: number): Promise<number> {
    const rows = await q.query(
      `delete from dispatch_trail where ctid in (
         select ctid from dispatch_trail where at < $1 order by at limit $2)
       returning order_id`,
      [before, limit],
    );
    return rows.length;
  },
};
