import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Courier, CouriersService } from '../couriers/index.ts';
import {
  FAILURE_REASONS,
  type DeliveryStatus,
  type FailureReason,
  type MoveOptions,
} from '../delivery/index.ts';
import {
  failedAttempt,
  movesFrom,
  STEPS,
  type CourierAction,
  type Stage,
} from './domain/actions.ts';
import { batchRepository } from './batch-repository.ts';
import { currentStop } from './domain/route.ts';
import { type Offers, ringCouriers } from './offers.ts';
import {
  dispatchRepository as repo,
  type AssignmentRow,
  type BoardRow,
  type OfferRow,
} from './repository.ts';

/** Delivery's operation the dispatch service moves orders through (OrdersService). */
export interface DispatchOrders {
  find(orderId: string, q?: Queryable): Promise<DispatchOrder | undefined>;
  /** The moves the order may make now, its delivery attempts counted. */
  allowedMoves(order: DispatchOrder): DeliveryStatus[];
  moveIn(
    tx: Queryable,
    orderId: string,
    to: DeliveryStatus,
    opts: MoveOptions,
  ): Promise<{ status: DeliveryStatus }>;
}

type DispatchOrder = { id: string; status: DeliveryStatus; delivery_attempts: number };

/** What a courier action answers (the courier app's action record keeps its stage and status). */
export interface ActionResult {
  order_id: string;
  action: CourierAction;
  /** The courier's stage on the job after the action (null after a decline). */
  stage: Stage | null;
  /** The order's delivery status after the action. */
  status: DeliveryStatus;
}

/**
 * Where a courier's job action runs. From the courier app: inside the unit of work in which couriers
 * claimed the action's id (dispatch's transaction joins it as a savepoint, and the id, the effect
 * and the answer commit together), whose `afterCommit` runs the work that must wait for that commit
 * (texting the recipient their code, offering a declined job to the next courier). Without one (the
 * sandbox courier, operators' tools), the action is its own transaction and that work runs after it;
 * a repeat is then refused by the job's stage, under its lock, as any action out of turn.
 */
export interface ActionUnit {
  afterCommit(work: () => Promise<void>): void;
}

type Later = Array<() => Promise<void>>;

/**
 * Runs inside the transaction of a "delivered" action, before the order moves: where proof of
 * delivery (a code, a photo) is checked; a check that throws refuses the delivery. None by default.
 */
export type DeliveryCheck = (
  tx: Queryable,
  job: { orderId: string; courierId: string } & DeliveredCash & TappedAt,
) => Promise<void>;

/** When the courier tapped "delivered" (their phone's time: an action queued offline arrives later). */
export interface TappedAt {
  at?: Date | undefined;
}

/** Cash the courier says they collected at the door (pesewas), for the cash check; absent when they say nothing. */
export interface DeliveredCash {
  cashCollectedPesewas?: number | undefined;
}

/**
 * Runs inside the transaction that gives a courier a job (an accepted offer or an operator's
 * assignment): where the order's delivery code is issued. It may answer work to do once the
 * transaction has committed (sending the recipient the code), never inside it.
 */
export type AssignHook = (
  tx: Queryable,
  job: { orderId: string; courierId: string },
) => Promise<(() => Promise<void>) | undefined>;

/** One drop of a multi-drop batch: its order, its place in the route (1 first) and its job's stage (none while offered). */
export interface BatchStop {
  order_id: string;
  stop: number;
  stage: Stage | null;
}

/**
 * What a courier has in hand: the job offered to them now, or the job they hold. For a batch,
 * `stops` lists its drops in route order and `order_id` is the one to act on now: the first drop
 * not on its way back to the pickup (all of them share the pickup, so pickup steps go to each).
 */
export type CurrentJob =
  | { kind: 'offer'; order_id: string; expires_at: Date; stops?: BatchStop[] }
  | { kind: 'job'; order_id: string; stage: Stage; stops?: BatchStop[] };

/** An open offer to a courier (the courier app's push names it). */
export interface OpenOffer {
  id: string;
  order_id: string;
  courier_id: string;
  expires_at: Date;
  /** How many drops the offer covers: more than 1 for a multi-drop batch (its newest row stands for it). */
  drops?: number;
}

interface StepOptions {
  /** The order's moves' note, actor and failure reason. */
  move: MoveOptions;
  /** Runs first in the transaction; throwing refuses the action (proof of delivery). */
  before?: (tx: Queryable) => Promise<void>;
  route?: (order: DispatchOrder) => { to: Stage; moves: DeliveryStatus[] } | undefined;
}

export type BoardColumn = 'unassigned' | 'offered' | 'in_progress' | 'late';

export interface BoardEntry extends BoardRow {
  column: BoardColumn;
}

const NOTE = /^[^\p{Cc}]{1,500}$/u;

/** The courier's reason and note for a could-not-deliver, checked before anything is touched. */
function failure(
  reason: unknown,
  note: unknown,
): { reason: FailureReason; note: string | undefined } {
  if (typeof reason !== 'string' || !(FAILURE_REASONS as readonly string[]).includes(reason)) {
    throw errors.validation(`Invalid reason: must be one of ${FAILURE_REASONS.join(', ')}.`, [
      { field: 'reason', issue: `must be one of ${FAILURE_REASONS.join(', ')}` },
    ]);
  }
  if (note !== undefined && typeof note !== 'string')
    throw errors.validation('Invalid note: must be text.', [
      { field: 'note', issue: 'must be a string' },
    ]);
  const clean = note?.trim() || undefined;
  if (clean !== undefined && !NOTE.test(clean)) {
    throw errors.validation(
      'Invalid note: must be at most 500 characters without control characters.',
      [{ field: 'note', issue: 'must be at most 500 characters without control characters' }],
    );
  }
  if (reason === 'other' && !clean)
    throw errors.validation('A reason of other needs a note saying what happened.', [
      { field: 'note', issue: 'required when reason is other' },
    ]);
  return { reason: reason as FailureReason, note: clean };
}

/** A batch's drops for the courier's screen; nothing for a single job. */
function stopsOf(rows: ReadonlyArray<AssignmentRow | OfferRow>): { stops?: BatchStop[] } {
  if (!rows.length) return {};
  return {
    stops: rows.map((r) => ({
      order_id: r.order_id,
      stop: r.stop ?? 1,
      stage: 'stage' in r ? r.stage : null,
    })),
  };
}

function column(row: BoardRow): BoardColumn {
  if (row.state === 'assigned') return 'in_progress';
  if (row.late_at) return 'late';
  return row.state === 'offered' ? 'offered' : 'unassigned';
}

/**
 * Couriers' job actions and operators' control of dispatch. A courier action applies once: the
 * courier app's action id is claimed by couriers in the unit its transaction joins (ActionUnit), and
 * each step moves the job only from the stages before it, under the job's lock. Status moves go
 * through delivery's state machine.
 */
export class DispatchService {
  private readonly deliveryChecks: DeliveryCheck[] = [];
  private readonly assignHooks: AssignHook[] = [];

  constructor(
    private readonly db: Db,
    private readonly orders: DispatchOrders,
    private readonly couriers: CouriersService,
    private readonly offers: Offers,
    private readonly clock: () => number,
  ) {}

  /** Adds a check every "delivered" action must pass (proof of delivery). */
  onDeliver(check: DeliveryCheck): void {
    this.deliveryChecks.push(check);
  }

  /** Adds a hook run when a courier is given a job (by accepting an offer or by an operator). */
  onAssign(hook: AssignHook): void {
    this.assignHooks.push(hook);
  }

  /** The courier's job in hand: the one they hold, else the open offer made to them (the courier app's screen). */
  async currentJob(courierId: string): Promise<CurrentJob | undefined> {
    const current = currentStop(await repo.heldBy(this.db, courierId));
    if (current) {
      const { batch, now } = current;
      const stops = now.batch_id ? stopsOf(batch) : {};
      return { kind: 'job', order_id: now.order_id, stage: now.stage, ...stops };
    }
    const offer = await repo.openOfferFor(this.db, courierId, new Date(this.clock()));
    if (!offer) return undefined;
    const batch = offer.batch_id ? await batchRepository.batchOffers(this.db, offer.batch_id) : [];
    return {
      kind: 'offer',
      order_id: batch[0]?.order_id ?? offer.order_id,
      expires_at: offer.expires_at,
      ...stopsOf(batch),
    };
  }

  /** Each courier's newest open offer (id, order, courier, expiry): what a push to their phone tells of. */
  async newestOpenOffers(): Promise<OpenOffer[]> {
    const rows = await repo.newestOpenOffers(this.db, new Date(this.clock()));
    return rows.map((o) => ({
      id: o.id,
      order_id: o.order_id,
      courier_id: o.courier_id,
      expires_at: o.expires_at,
      drops: Math.max(1, o.drops),
    }));
  }

  /** The courier who carries or carried an order to its end, and its zone (couriers' pay); none for an order no courier held. */
  async carrierOf(
    q: Queryable,
    orderId: string,
  ): Promise<{ courierId: string; zone: string | null } | undefined> {
    const row = await repo.carrier(q, orderId);
    return row && { courierId: row.courier_id, zone: row.zone };
  }

  /** Whether the courier holds the order's job now. */
  async holds(courierId: string, orderId: string): Promise<boolean> {
    return (await repo.activeAssignment(this.db, orderId))?.courier_id === courierId;
  }

  async accept(courierId: string, orderId: string, unit?: ActionUnit): Promise<ActionResult> {
    return this.act(orderId, courierId, 'accept', unit, async (tx, now, later) => {
      const offer = await repo.openOffer(tx, orderId);
      if (!offer || offer.courier_id !== courierId || offer.expires_at <= now) {
        const held = await repo.activeAssignment(tx, orderId);
        if (held)
          throw errors.jobTaken(
            held.courier_id === courierId
              ? 'You already hold this job.'
              : 'Another courier has taken this job.',
          );
        throw errors.offerNotOpen(
          'This job is not offered to you now: the offer expired, was declined or went to another courier.',
        );
      }
      // A batch is accepted as one: the courier holds each of its jobs, each order accepted on its own.
      let status: DeliveryStatus = 'accepted';
      for (const o of await this.answered(tx, offer)) {
        await repo.answerOffer(tx, o.id, 'accepted', now);
        await repo.insertAssignment(tx, {
          id: newId('asg'),
          orderId: o.order_id,
          courierId,
          stage: 'accepted',
          source: 'offer',
          now,
          batchId: o.batch_id,
          stop: o.stop,
        });
        await repo.setState(tx, o.order_id, ['offered'], 'assigned', now);
        const order = await this.orders.moveIn(tx, o.order_id, 'accepted', {
          note: 'Accepted by courier',
          by: 'courier',
        });
        if (o.order_id === orderId) status = order.status;
        later.push(...(await this.runAssignHooks(tx, o.order_id, courierId)));
      }
      return { stage: 'accepted', status };
    });
  }

  /** The offers one answer covers: the offer alone, or every open offer of its batch (locked). */
  private async answered(tx: Queryable, offer: OfferRow): Promise<OfferRow[]> {
    return offer.batch_id ? batchRepository.batchOffers(tx, offer.batch_id, true) : [offer];
  }

  private async runAssignHooks(
    tx: Queryable,
    orderId: string,
    courierId: string,
  ): Promise<Array<() => Promise<void>>> {
    const later: Array<() => Promise<void>> = [];
    for (const hook of this.assignHooks) {
      const work = await hook(tx, { orderId, courierId });
      if (work) later.push(work);
    }
    return later;
  }

  async decline(courierId: string, orderId: string, unit?: ActionUnit): Promise<ActionResult> {
    return this.act(orderId, courierId, 'decline', unit, async (tx, now, later) => {
      const offer = await repo.openOffer(tx, orderId);
      if (!offer || offer.courier_id !== courierId)
        throw errors.offerNotOpen('This job is not offered to you now.');
      // A batch is declined as one: each of its jobs waits again (and may batch again for the next courier).
      const declined = await this.answered(tx, offer);
      for (const o of declined) {
        await repo.answerOffer(tx, o.id, 'declined', now);
        await repo.setState(tx, o.order_id, ['offered'], 'waiting', now);
      }
      // The next courier hears of it now rather than on the next round.
      later.push(async () => {
        for (const o of declined) await this.offers.offerNow(o.order_id);
      });
      return { stage: null, status: (await this.orders.find(orderId, tx))!.status };
    });
  }

  async arrivedAtPickup(
    courierId: string,
    orderId: string,
    unit?: ActionUnit,
  ): Promise<ActionResult> {
    return this.step(courierId, orderId, 'arrived_at_pickup', unit, {
      move: { note: 'Courier at the pickup point', by: 'courier' },
    });
  }

  /**
   * Picked up and, by default, leaving with it (pickedUp then in_transit). `leaving: false` stops at
   * pickedUp and the next action ("arrived") moves on to in_transit: the sandbox courier's one move per step.
   */
  async pickedUp(
    courierId: string,
    orderId: string,
    opts: { leaving?: boolean; unit?: ActionUnit } = {},
  ): Promise<ActionResult> {
    return this.step(courierId, orderId, 'picked_up', opts.unit, {
      move: { note: 'Picked up by the courier', by: 'courier' },
      route:
        opts.leaving === false
          ? (order) => ({ to: 'picked_up', moves: movesFrom(order.status, ['pickedUp']) })
          : undefined,
    });
  }

  /** At the drop-off; an order still at pickedUp (a pickup that did not leave at once) is in transit by now. */
  async arrived(courierId: string, orderId: string, unit?: ActionUnit): Promise<ActionResult> {
    return this.step(courierId, orderId, 'arrived', unit, {
      move: { note: 'Courier at the drop-off', by: 'courier' },
      route: (order) =>
        order.status === 'pickedUp' ? { to: 'at_dropoff', moves: ['in_transit'] } : undefined,
    });
  }

  /** Moves the order to delivered once every registered DeliveryCheck (proof) passes. */
  async delivered(
    courierId: string,
    orderId: string,
    cash: DeliveredCash & TappedAt = {},
    unit?: ActionUnit,
  ): Promise<ActionResult> {
    return this.step(courierId, orderId, 'delivered', unit, {
      move: { note: 'Delivered by the courier', by: 'courier' },
      before: async (tx) => {
        for (const check of this.deliveryChecks)
          await check(tx, {
            orderId,
            courierId,
            cashCollectedPesewas: cash.cashCollectedPesewas,
            at: cash.at,
          });
      },
    });
  }

  /**
   * The courier could not deliver, saying why (a FailureReason; `other` needs a note). Goods on the
   * way go out again while the order has an attempt left, else back to the pickup (the job goes on to
   * "returned"); before the pickup the order fails. Delivery applies its refund and return-fee rules.
   */
  async couldNotDeliver(
    courierId: string,
    orderId: string,
    reason: unknown,
    note?: unknown,
    unit?: ActionUnit,
  ): Promise<ActionResult> {
    const why = failure(reason, note);
    return this.step(courierId, orderId, 'could_not_deliver', unit, {
      move: { note: why.note, by: 'courier', failureReason: why.reason },
      route: (order) =>
        failedAttempt(order.status, this.orders.allowedMoves(order).includes('in_transit')),
    });
  }

  /** The courier handed the goods of a returning order back at the pickup: returned ends the job. */
  async returned(courierId: string, orderId: string, unit?: ActionUnit): Promise<ActionResult> {
    return this.step(courierId, orderId, 'returned', unit, {
      move: { note: 'Returned to the pickup by the courier', by: 'courier' },
    });
  }

  /** An operator gives the job to a courier by hand, taking it from whoever held it or was offered it. */
  async assign(
    orderId: string,
    courierId: string,
    expected?: { courierId: string | null },
  ): Promise<{
    order_id: string;
    courier_id: string;
    previous_courier_id: string | null;
    stage: Stage;
    status: DeliveryStatus;
  }> {
    const courier = await this.couriers.get(courierId);
    if (!courier.active)
      throw errors.invalidTransition(
        `Courier ${courierId} is deactivated and cannot be given jobs.`,
      );
    const now = new Date(this.clock());
    const later: Array<() => Promise<void>> = [];
    const result = await this.db.transaction(async (tx) => {
      const job = await repo.job(tx, orderId, true);
      if (!job)
        throw errors.orderNotFound(
          `Order ${orderId} is not dispatched (only orders placed since dispatch started are).`,
        );
      if (job.state === 'closed')
        throw errors.invalidTransition(
          `The job for order ${orderId} has ended; it cannot be assigned.`,
        );
      // Staging jobs (and a playground's production ones) belong to the sandbox courier alone, and it takes no other.
      if (courier.simulated !== this.offers.sandboxEnvironments.includes(job.environment)) {
        throw errors.invalidTransition(
          `Order ${orderId} is a ${job.environment} order; ${courier.simulated ? 'the sandbox courier takes staging orders only' : `only the sandbox courier takes ${job.environment} orders here`}.`,
        );
      }
      const current = await repo.activeAssignment(tx, orderId);
      // The operator decided on what their screen showed; a courier who accepted (or left) since
      // must not lose (or be given) the job without the operator seeing it.
      if (expected && (current?.courier_id ?? null) !== expected.courierId)
        throw errors.assignmentChanged(
          current
            ? `Order ${orderId} is now held by courier ${current.courier_id}; reload to see it and reassign if you still mean to.`
            : `Order ${orderId} no longer has courier ${expected.courierId}; reload to see it as it is now.`,
        );
      if (current?.courier_id === courierId)
        throw errors.invalidTransition(`Courier ${courierId} already holds order ${orderId}.`);
      ringCouriers(tx, [...(await repo.concerned(tx, orderId)), courierId]);
      await repo.withdrawOffers(tx, orderId, now);
      if (current) await repo.endAssignment(tx, orderId, 'reassigned', now);
      const stage = current?.stage ?? 'accepted';
      await repo.insertAssignment(tx, {
        id: newId('asg'),
        orderId,
        courierId,
        stage,
        source: 'operator',
        now,
      });
      await repo.setState(tx, orderId, ['waiting', 'offered', 'assigned'], 'assigned', now);
      let { status } = (await this.orders.find(orderId, tx))!;
      if (status === 'placed')
        status = (
          await this.orders.moveIn(tx, orderId, 'accepted', {
            note: 'Assigned to a courier by operations',
            by: 'operator',
          })
        ).status;
      later.push(...(await this.runAssignHooks(tx, orderId, courierId)));
      return {
        order_id: orderId,
        courier_id: courierId,
        previous_courier_id: current?.courier_id ?? null,
        stage,
        status,
      };
    });
    for (const work of later) await work();
    return result;
  }

  /** Couriers an operator may give a job to: active and on duty (the board's choices). */
  async assignable(): Promise<Courier[]> {
    return this.couriers.list({ active: true, onDuty: true, simulated: false, limit: 200 });
  }

  /** Open jobs for the dispatch board, late ones first, each in its column. */
  async board(limit = 200): Promise<BoardEntry[]> {
    return (await repo.board(this.db, limit)).map((row) => ({ ...row, column: column(row) }));
  }

  /**
   * One job action of the courier holding the job: the stage and the order's moves of its STEPS rule,
   * or of `route` when that answers for the order as it is now (a could-not-deliver on the way).
   */
  private async step(
    courierId: string,
    orderId: string,
    kind: keyof typeof STEPS,
    unit: ActionUnit | undefined,
    opts: StepOptions,
  ): Promise<ActionResult> {
    const rule = STEPS[kind];
    return this.act(orderId, courierId, kind, unit, async (tx, now) => {
      const held = await repo.activeAssignment(tx, orderId);
      if (!held || held.courier_id !== courierId)
        throw errors.notYourJob('Only the courier holding this job may act on it.');
      if (!rule.from.includes(held.stage)) {
        throw errors.invalidTransition(
          `A job at stage ${held.stage} cannot take "${kind}"; it needs one of: ${rule.from.join(', ')}.`,
        );
      }
      await opts.before?.(tx);
      const order = (await this.orders.find(orderId, tx))!;
      const { to, moves } = opts.route?.(order) ?? {
        to: rule.to,
        moves: movesFrom(order.status, rule.moves),
      };
      await repo.setStage(tx, held.id, to, now);
      // A batch's drop that goes out again is tried after the others (the courier is at this door now).
      if (held.batch_id && kind === 'could_not_deliver' && to === 'picked_up')
        await batchRepository.toRouteEnd(tx, held.id, held.batch_id);
      let status = order.status;
      for (const next of moves)
        status = (await this.orders.moveIn(tx, orderId, next, opts.move)).status;
      return { stage: to, status };
    });
  }

  /**
   * Applies the action in one transaction (a savepoint of the courier app's unit, when given) and
   * hands the work it leaves for after the commit to the unit, or runs it once its own has committed.
   */
  private async act(
    orderId: string,
    courierId: string,
    kind: CourierAction,
    unit: ActionUnit | undefined,
    apply: (
      tx: Queryable,
      now: Date,
      later: Later,
    ) => Promise<{ stage: Stage | null; status: DeliveryStatus }>,
  ): Promise<ActionResult> {
    const now = new Date(this.clock());
    let later: Later = [];
    const result = await this.db.transaction(async (tx) => {
      later = [];
      const applied = { order_id: orderId, action: kind, ...(await apply(tx, now, later)) };
      ringCouriers(tx, [courierId]);
      return applied;
    });
    if (unit) for (const work of later) unit.afterCommit(work);
    else for (const work of later) await work();
    return result;
  }
}
