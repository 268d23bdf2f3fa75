import type { Db, Queryable } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import { haversineKm } from '../../shared/ghana/index.ts';
import type { Logger } from '../../platform/logger.ts';
import type { CouriersService } from '../couriers/index.ts';
import type { DeliveryOrder, DeliveryStatus, PlacedOrder } from '../delivery/index.ts';
import { batchAround } from './batches.ts';
import { endsJob, stageAfterFailedAttempt } from './domain/actions.ts';
import { rankCandidates, zoneOf } from './domain/ranking.ts';
import { jobSchedule } from './domain/window.ts';
import { dispatchRepository as repo, type JobRow } from './repository.ts';
import type { DispatchSettings } from './settings.ts';
import { trailRepository } from './trail-repository.ts';

type Environment = JobRow['environment'];

/** How long after an offer expired unanswered its courier may be offered the job again. */
export const REOFFER_AFTER_MS = 5 * 60_000;

/** How many of the nearest couriers are ranked precisely for one offer. */
const CANDIDATES = 20;
/**
 * The search widens through these boxes around the pickup (km) until it finds CANDIDATES, then
 * without a box: a small box is read through the couriers' position index however many are on duty.
 */
const RADII_KM = [3, 10, 30];
export const OFFER_BATCH = 100;

/**
 * Woken (after the commit, on every instance) whenever a courier's offer or job may have changed:
 * an offer made, expired or withdrawn, a job assigned or moved. A hint naming the couriers
 * concerned, not a message: the courier app's event streams of those couriers read their job again
 * (so what they send is committed state), and the operators' boards look again whoever it names.
 */
export const COURIER_JOBS_CHANNEL = 'courier_jobs';

/** The key of a ring that concerns no courier's screen (an order gone late): the boards alone look again. */
const BOARDS_ONLY = 'boards';

/** Rings COURIER_JOBS_CHANNEL after the commit, naming the couriers whose offer or job changed. */
export function ringCouriers(q: Queryable, couriers: readonly string[]): void {
  if (!couriers.length) q.notify(COURIER_JOBS_CHANNEL, BOARDS_ONLY);
  for (const courier of new Set(couriers)) q.notify(COURIER_JOBS_CHANNEL, courier);
}

export interface TickResult {
  expired: number;
  offered: number;
  late: string[];
}

/**
 * The offer side of dispatch: queues each new order (staging ones wait for the sandbox courier,
 * which offers them to itself through offerTo), offers production ones to the best available
 * courier, expires offers not answered in time (the job moves to the next courier), and marks jobs
 * nobody took in time late. Several instances may run it: a job's state is compare-and-set, so an
 * offer is made once.
 */
export class Offers {
  constructor(
    private readonly db: Db,
    private readonly couriers: CouriersService,
    private readonly settings: DispatchSettings,
    private readonly clock: () => number,
    private readonly log: Logger,
  ) {}

  /** Environments whose jobs the sandbox courier takes (and real couriers never): staging, and production on a playground. */
  get sandboxEnvironments(): readonly Environment[] {
    return this.settings.sandboxForProduction ? ['staging', 'production'] : ['staging'];
  }

  /**
   * Delivery's placement statement: an order becomes a waiting job in the order's own insert. A
   * production job goes to real couriers (tick); a staging job only to the sandbox courier. A job
   * with a window is due from its ready time less the lead time; until then no round reads it.
   */
  readonly onPlace = (
    {
      orderId,
      environment,
      at,
      pickup,
      dropoff,
      pickupRegion,
      pickupReadyAt,
      dropoffDeadline,
      testClockId,
    }: PlacedOrder,
    firstParam: number,
  ) => {
    const { dueAt, missAt } = jobSchedule(
      { at, pickupReadyAt, dropoffDeadline, pickup, dropoff },
      this.settings.windowLeadMinutes * 60_000,
    );
    return repo.insertJobStatement(
      {
        orderId,
        environment,
        lat: pickup?.lat ?? null,
        lng: pickup?.lng ?? null,
        dropoff,
        zone: zoneOf(pickupRegion),
        now: at,
        dueAt,
        dropoffDeadline,
        missAt,
        pickupReadyAt,
        testClockId,
      },
      firstParam,
    );
  };

  /**
   * Delivery's move listener. An order that ends (delivered, cancelled, failed, returned) ends its
   * assignment and offers, and its courier's trail goes; one moved on from placed by an operator
   * without a courier leaves dispatch. A could-not-deliver move, an operator's too, puts the
   * courier's job at its next step.
   */
  readonly onMove = async (
    tx: Queryable,
    order: DeliveryOrder,
    from: DeliveryStatus,
  ): Promise<void> => {
    const job = await repo.job(tx, order.id, true);
    if (!job || job.state === 'closed') return;
    const now = new Date(this.clock());
    const stage = stageAfterFailedAttempt(from, order.status);
    if (stage) await repo.setActiveStage(tx, order.id, stage, now);
    ringCouriers(tx, await repo.concerned(tx, order.id));
    const manual = from === 'placed' && job.state !== 'assigned';
    if (!endsJob(order.status) && !manual) return;
    await repo.withdrawOffers(tx, order.id, now);
    await repo.endAssignment(
      tx,
      order.id,
      order.status === 'cancelled' ? 'cancelled' : 'finished',
      now,
    );
    await repo.setState(tx, order.id, ['waiting', 'offered', 'assigned'], 'closed', now);
    await trailRepository.forget(tx, order.id);
  };

  /** One round: expire offers, mark late jobs (logged as an alert), offer waiting jobs. */
  async tick(): Promise<TickResult> {
    const now = new Date(this.clock());
    const expired = await repo.expireOffers(this.db, now);
    if (expired.length) ringCouriers(this.db, expired);
    const late = await repo.markLate(
      this.db,
      new Date(now.getTime() - this.settings.lateMinutes * 60_000),
      now,
    );
    // The operators' dispatch board raises its late alert when this rings.
    if (late.length) ringCouriers(this.db, []);
    for (const orderId of late) {
      this.log.warn(
        { alert: 'dispatch_unaccepted_order', orderId },
        `ALERT: order ${orderId} has had no courier for ${this.settings.lateMinutes} minutes`,
      );
    }
    let offered = 0;
    // On a playground the sandbox courier takes production's jobs too: real couriers are offered none.
    const jobs = this.settings.sandboxForProduction
      ? []
      : await repo.waiting(this.db, now, OFFER_BATCH);
    // Who is busy is read once for the round; each offer made in it adds its courier.
    const busy = jobs.length ? await repo.busy(this.db) : [];
    // Nobody free at all (a night, a fleet all on jobs): each job's search would find nobody, at a
    // few reads a job on every commit's wake-up. Only an offer made can change the answer.
    let free = jobs.length > 0 && (await this.anyoneFree(busy));
    // Jobs a batch offered earlier in the round took along: no search of their own.
    const taken = new Set<string>();
    for (const job of jobs) {
      if (!free) break;
      if (taken.has(job.order_id)) continue;
      const courier = await this.offer(job, busy, taken);
      if (!courier) continue;
      busy.push(courier);
      offered++;
      free = await this.anyoneFree(busy);
    }
    return { expired: expired.length, offered, late };
  }

  /** Whether any courier could be offered a job now, whatever its zone or pickup. */
  private async anyoneFree(busy: readonly string[]): Promise<boolean> {
    const maxAgeMs = this.settings.positionMaxAgeMinutes * 60_000;
    return (await this.couriers.available({ maxAgeMs, exclude: busy, limit: 1 })).length > 0;
  }

  /**
   * Offers the production job to the best courier not yet offered it, with the jobs that may ride
   * along in one batch (batches.ts), adding every job offered to `taken`; answers that courier's id, if any.
   */
  async offer(
    job: JobRow,
    busy?: readonly string[],
    taken?: Set<string>,
  ): Promise<string | undefined> {
    if (this.sandboxEnvironments.includes(job.environment)) return undefined;
    // Not one who declined it or let it expire in the last REOFFER_AFTER_MS, nor one busy: the
    // courier app shows one thing at a time (the job in hand, else one offer), so a second offer
    // would expire unseen (the simulated day found 80% did).
    const pausedSince = new Date(this.clock() - REOFFER_AFTER_MS);
    const exclude = [
      ...(await repo.notAgain(this.db, job.order_id, pausedSince)),
      ...(busy ?? (await repo.busy(this.db))),
    ];
    const pickup =
      job.pickup_lat !== null && job.pickup_lng !== null
        ? { lat: job.pickup_lat, lng: job.pickup_lng }
        : null;
    const found = await this.candidates(pickup, job.zone, exclude);
    if (!found.length) return undefined;
    const best = rankCandidates(
      pickup,
      found.map((c) => ({ id: c.id, position: { lat: c.last_lat!, lng: c.last_lng! } })),
    )[0]!;
    const courier = found.find((c) => c.id === best.id)!;
    const now = new Date(this.clock());
    const orders = await batchAround(
      this.db,
      job,
      {
        id: courier.id,
        position: { lat: courier.last_lat!, lng: courier.last_lng! },
        vehicle: courier.vehicle,
      },
      {
        maxStops: this.settings.batchMaxStops,
        windowMs: this.settings.batchWindowSeconds * 1000,
        offerMs: this.settings.offerSeconds * 1000,
        pausedSince,
      },
      now,
    );
    const offered = await this.offerTo(job.order_id, best.id, orders);
    for (const id of offered) taken?.add(id);
    return offered.length ? best.id : undefined;
  }

  /**
   * Offers a waiting job to one courier (compare-and-set on the job), with `batch`: the jobs of a
   * multi-drop batch in route order, `orderId` among them. One offer row per job, sharing the batch's
   * id and expiry and numbered by drop, so the batch is answered and expires as one. A companion
   * taken meanwhile is left out; `orderId` no longer waiting offers nothing. Answers the jobs offered.
   */
  async offerTo(orderId: string, courierId: string): Promise<boolean>;
  async offerTo(orderId: string, courierId: string, batch: readonly string[]): Promise<string[]>;
  async offerTo(
    orderId: string,
    courierId: string,
    batch?: readonly string[],
  ): Promise<boolean | string[]> {
    const offered = await this.offerJobs(orderId, courierId, batch ?? [orderId]);
    return batch ? offered : offered.length > 0;
  }

  private async offerJobs(
    orderId: string,
    courierId: string,
    batch: readonly string[],
  ): Promise<string[]> {
    const now = new Date(this.clock());
    const expiresAt = new Date(now.getTime() + this.settings.offerSeconds * 1000);
    try {
      return await this.db.transaction(async (tx) => {
        if (!(await repo.setState(tx, orderId, ['waiting'], 'offered', now))) return [];
        const jobs: string[] = [];
        for (const id of batch)
          if (id === orderId || (await repo.setState(tx, id, ['waiting'], 'offered', now)))
            jobs.push(id);
        const ids = jobs.map(() => newId('ofr'));
        const batchId = jobs.length > 1 ? ids[0]! : null;
        for (const [i, id] of jobs.entries())
          await repo.insertOffer(tx, {
            id: ids[i]!,
            orderId: id,
            courierId,
            now,
            expiresAt,
            batchId,
            stop: batchId ? i + 1 : null,
          });
        ringCouriers(tx, [courierId]);
        return jobs;
      });
    } catch (err) {
      // Another instance offered this job at the same moment (one open offer per job).
      if ((err as { code?: string }).code === '23505') return [];
      throw err;
    }
  }

  /** The nearest candidates: a widening box around the pickup, then anywhere (or anywhere at once without a pickup). */
  private async candidates(
    pickup: { lat: number; lng: number } | null,
    zone: string | null,
    exclude: string[],
  ) {
    const ask = (km?: number) =>
      this.couriers.available({
        maxAgeMs: this.settings.positionMaxAgeMinutes * 60_000,
        zone: zone ?? undefined,
        near: pickup ? { ...pickup, km } : undefined,
        exclude,
        limit: CANDIDATES,
      });
    if (pickup) {
      for (const km of RADII_KM) {
        const found = await ask(km);
        // Complete only when even the farthest found is inside the circle: nobody outside the box is nearer.
        if (
          found.length >= CANDIDATES &&
          haversineKm(pickup, { lat: found.at(-1)!.last_lat!, lng: found.at(-1)!.last_lng! }) <= km
        )
          return found;
      }
    }
    return ask();
  }

  /** Offers one job now (after a decline), without waiting for the next round. */
  async offerNow(orderId: string): Promise<string | undefined> {
    const job = await repo.job(this.db, orderId);
    return job?.state === 'waiting' ? this.offer(job) : undefined;
  }
}
