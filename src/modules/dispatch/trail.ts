import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import type { CouriersService, Vehicle } from '../couriers/index.ts';
import {
  TRACKING_CHANNEL,
  type CourierProgress,
  type CourierTracker,
  type DeliveryOrder,
  type ReadAlongside,
  type TrackedCourier,
} from '../delivery/index.ts';
import { appendEvent } from '../webhooks/index.ts';
import type { Stage } from './domain/actions.ts';
import { etaAt, nextStop, type NextStop } from './domain/eta.ts';
import { currentStop } from './domain/route.ts';
import { arrivalAtDropoff } from './domain/window.ts';
import type { WindowWatch } from './window-watch.ts';
import {
  heldJsonFor,
  trailRepository as repo,
  type HeldJob,
  type TrailPoint,
} from './trail-repository.ts';

/** heldJsonFor's value (the job's stops, not its window). */
type HeldJson = JobStops & {
  courier_id: string;
  point: { lat: number; lng: number; at: number } | null;
};

/** The newest points kept per order. */
export const TRAIL_POINTS = 50;
/** At most one delivery.courier.location event per order in this time. */
export const LOCATION_EVENT_EVERY_MS = 20_000;
/** Points the retention job deletes per statement. */
const PRUNE_BATCH = 500;

/** Delivery's read of an order, for the event's addressing (OrdersService). */
export interface TrailOrders {
  find(orderId: string): Promise<DeliveryOrder | undefined>;
}

/**
 * The drop a courier works on now, as their position report found it: its order, stage, drop-off
 * and progress (the ETA and next stop this report gave), and who the courier is.
 */
export interface CurrentDrop {
  order: DeliveryOrder;
  stage: Stage;
  dropoff: { lat: number; lng: number } | null;
  progress: CourierProgress;
  courierName: string;
}

export type ProgressListener = (drop: CurrentDrop) => Promise<void>;

/** A recipient is told the courier's first name only. */
const firstName = (name: string): string => name.trim().split(/\s+/)[0] ?? '';

/** A job's stops, where they are known (its window aside). */
type JobStops = Omit<HeldJob, 'dropoff_deadline' | 'window_missed_at'>;

function stopOf(job: JobStops, stop: NextStop): { lat: number; lng: number } | null {
  const [lat, lng] =
    stop === 'pickup' ? [job.pickup_lat, job.pickup_lng] : [job.dropoff_lat, job.dropoff_lng];
  return lat === null || lng === null ? null : { lat, lng };
}

/**
 * Live location of couriers on jobs: each position report of a courier holding a job joins the
 * order's short trail, and at most every 20 s per order a delivery.courier.location event (with the
 * ETA to the next stop) is written in the same transaction. It is also delivery's CourierTracker.
 */
export class CourierTrail implements CourierTracker {
  private readonly progressListeners: ProgressListener[] = [];

  constructor(
    private readonly db: Db,
    private readonly orders: TrailOrders,
    private readonly couriers: CouriersService,
    private readonly windows: WindowWatch,
    private readonly retentionHours: number,
    private readonly clock: () => number,
    private readonly log: Logger,
  ) {}

  /** Registers a listener told, after each report joined the trail, of the courier's current drop. */
  onProgress(listener: ProgressListener): void {
    this.progressListeners.push(listener);
  }

  /** When a report concerns onPosition: the courier holds a job (the couriers module's PositionCondition). */
  readonly holdsJob = repo.holdsJobColumn;

  /**
   * The couriers module's position listener. Its listeners are told of the drop the courier works
   * on now (dispatch's currentJob's), from what this report already read, so that the hot path
   * reads nothing more for them.
   */
  readonly onPosition = async (
    courierId: string,
    report: TrailPoint,
    courier: { name: string; vehicle: Vehicle },
  ): Promise<void> => {
    const jobs = await repo.heldBy(this.db, courierId);
    if (!jobs.length) return;
    const seen = new Map<string, { order: DeliveryOrder; progress: CourierProgress }>();
    for (const job of jobs) {
      const order = await this.orders.find(job.order_id);
      if (!order) continue;
      const progress = this.progress(job, report, courier.vehicle);
      seen.set(job.order_id, { order, progress });
      await this.record(job, order, report, progress, courier.vehicle);
    }
    const now = currentStop(jobs)?.now;
    const current = now && seen.get(now.order_id);
    if (!now || !current) return;
    const dropoff = stopOf(now, 'dropoff');
    for (const listener of this.progressListeners)
      await listener({ courierName: courier.name, stage: now.stage, dropoff, ...current });
  };

  /**
   * The report joins the job's trail (one statement); at most every 20 s it also becomes the
   * order's location event, claimed and written in one transaction. Most reports fall inside the
   * 20 s: the job's read says so, and they cost the one statement (the claim stays the judge
   * between instances).
   */
  private async record(
    job: HeldJob,
    order: DeliveryOrder,
    report: TrailPoint,
    progress: CourierProgress,
    vehicle: Vehicle,
  ): Promise<void> {
    await repo.add(this.db, job.order_id, report, TRAIL_POINTS);
    this.db.notify(TRACKING_CHANNEL);
    await this.watchDeadline(job, order, progress, vehicle);
    const now = new Date(this.clock());
    const sent = job.location_sent_at && new Date(job.location_sent_at).getTime();
    if (sent && now.getTime() - sent < LOCATION_EVENT_EVERY_MS) return;
    await this.db.transaction(async (tx) => {
      const sequence = await repo.claimLocationEvent(
        tx,
        job.order_id,
        now,
        LOCATION_EVENT_EVERY_MS,
      );
      if (sequence === undefined) return;
      await appendEvent(tx, {
        appId: order.app_id,
        environment: order.environment,
        type: 'delivery.courier.location',
        subjectId: order.id,
        // Location events have their own sequence per order (they do not move the order).
        sequence,
        destinationUrl: order.webhook_url,
        at: now,
        data: {
          order_id: order.id,
          order_reference: order.order_reference,
          courier: { position: progress.position },
          next_stop: progress.next_stop,
          eta: progress.eta,
          recorded_at: progress.updated_at,
        },
      });
    });
  }

  /** An ETA at the drop-off past the order's deadline flags it (once: WindowWatch, in its own transaction). */
  private async watchDeadline(
    job: HeldJob,
    order: DeliveryOrder,
    progress: CourierProgress,
    vehicle: Vehicle,
  ): Promise<void> {
    if (!job.dropoff_deadline || job.window_missed_at) return;
    const arrival = arrivalAtDropoff(
      progress.eta ? new Date(progress.eta) : null,
      progress.next_stop === 'pickup',
      { pickup: stopOf(job, 'pickup'), dropoff: stopOf(job, 'dropoff'), vehicle },
    );
    if (arrival && arrival.getTime() > new Date(job.dropoff_deadline).getTime())
      await this.db.transaction((tx) =>
        this.windows.flag(tx, order, 'eta_after_deadline', arrival, new Date(this.clock())),
      );
  }

  async forOrder(orderId: string): Promise<CourierProgress | undefined> {
    const job = await repo.held(this.db, orderId);
    if (!job) return undefined;
    const point = await repo.newest(this.db, orderId);
    if (!point) return undefined;
    return this.progress(job, point, (await this.couriers.get(job.courier_id)).vehicle);
  }

  /** The phone of the courier holding the order's job (a masked call connects to it). */
  async phoneFor(orderId: string): Promise<string | undefined> {
    const job = await repo.held(this.db, orderId);
    if (!job) return undefined;
    const courier = await this.couriers.get(job.courier_id);
    // The sandbox courier's "phone" is no number.
    return courier.simulated ? undefined : courier.phone;
  }

  /** forOrder inside delivery's read of the order: the job and its newest point in that statement. */
  readonly alongside: ReadAlongside<Promise<CourierProgress | undefined>> = {
    column: heldJsonFor,
    read: async (value) => {
      const held = (typeof value === 'string' ? JSON.parse(value) : value) as HeldJson | null;
      if (!held?.point) return undefined;
      const { point, ...job } = held;
      const { vehicle } = await this.couriers.get(job.courier_id);
      return this.progress(job, { ...point, at: new Date(point.at) }, vehicle);
    },
  };

  /** Progress of several orders at once, with who carries each (first name and vehicle): the tracking pages' read. */
  async forOrders(orderIds: readonly string[]): Promise<Map<string, TrackedCourier>> {
    const found = new Map<string, TrackedCourier>();
    if (!orderIds.length) return found;
    const [jobs, points] = await Promise.all([
      repo.heldMany(this.db, orderIds),
      repo.newestMany(this.db, orderIds),
    ]);
    const newest = new Map(points.map((p) => [p.order_id, p]));
    const carriers = new Map<string, Awaited<ReturnType<CouriersService['get']>>>();
    for (const job of jobs) {
      const point = newest.get(job.order_id);
      if (!point) continue;
      let carrier = carriers.get(job.courier_id);
      if (!carrier)
        carriers.set(job.courier_id, (carrier = await this.couriers.get(job.courier_id)));
      found.set(job.order_id, {
        ...this.progress(job, point, carrier.vehicle),
        courier: { first_name: firstName(carrier.name), vehicle: carrier.vehicle },
      });
    }
    return found;
  }

  /** Deletes points past the retention, in bounded batches (the retention job; an ended job's went as it ended). */
  async prune(): Promise<number> {
    const before = new Date(this.clock() - this.retentionHours * 3_600_000);
    let total = 0;
    for (let n = PRUNE_BATCH; n === PRUNE_BATCH; total += n)
      n = await repo.prune(this.db, before, PRUNE_BATCH);
    if (total) this.log.info({ deleted: total }, 'courier trail points deleted');
    return total;
  }

  /** The ETA at the next stop: after the pickup, a batch's later drop's goes through the drops before it. */
  private progress(
    job: JobStops,
    point: TrailPoint,
    vehicle: Parameters<typeof etaAt>[2],
  ): CourierProgress {
    const next = nextStop(job.stage);
    const stop = stopOf(job, next);
    const before = typeof job.before === 'string' ? JSON.parse(job.before) : job.before;
    const via = next === 'dropoff' && before ? before : [];
    return {
      position: { lat: point.lat, lng: point.lng },
      updated_at: point.at.toISOString(),
      eta: stop ? etaAt(point, stop, vehicle, new Date(this.clock()), via).toISOString() : null,
      next_stop: next,
    };
  }
}
