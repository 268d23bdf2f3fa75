/** A courier's job actions: which assignment stage each needs, where it leads, and the order's moves. */
import type { DeliveryStatus } from '../../delivery/index.ts';

export const COURIER_ACTIONS = [
  'accept',
  'decline',
  'arrived_at_pickup',
  'picked_up',
  'arrived',
  'delivered',
  'could_not_deliver',
  'returned',
] as const;
export type CourierAction = (typeof COURIER_ACTIONS)[number];

export type Stage =
  | 'accepted'
  | 'at_pickup'
  | 'picked_up'
  | 'at_dropoff'
  | 'delivered'
  | 'failed'
  | 'returning'
  | 'returned';

export interface StepRule {
  /** The assignment stages the action is allowed from. */
  from: readonly Stage[];
  to: Stage;
  /**
   * The order's moves, in order, through delivery's state machine. A target the order has already
   * reached (an operator moved it ahead) is skipped. Empty: the action changes no order status.
   */
  moves: readonly DeliveryStatus[];
}

/**
 * The actions a courier takes on a job they hold. Delivery has no "arrived" states: arriving at the
 * pickup or the drop-off is recorded on the assignment only. Picking up moves the order to pickedUp
 * and on to in_transit (the courier leaves with it). A could-not-deliver before the goods left fails
 * the order; once they are on the way it is a failed attempt (see failedAttempt). Returning the goods
 * to the pickup moves returning → returned, which ends the job.
 */
export const STEPS: Readonly<Record<Exclude<CourierAction, 'accept' | 'decline'>, StepRule>> = {
  arrived_at_pickup: { from: ['accepted'], to: 'at_pickup', moves: [] },
  picked_up: {
    from: ['accepted', 'at_pickup'],
    to: 'picked_up',
    moves: ['pickedUp', 'in_transit'],
  },
  arrived: { from: ['picked_up'], to: 'at_dropoff', moves: [] },
  delivered: {
    from: ['picked_up', 'at_dropoff'],
    to: 'delivered',
    moves: ['in_transit', 'delivered'],
  },
  could_not_deliver: {
    from: ['accepted', 'at_pickup', 'picked_up', 'at_dropoff'],
    to: 'failed',
    moves: ['failed'],
  },
  returned: { from: ['returning'], to: 'returned', moves: ['returned'] },
};

/** Whether a job at `stage` can take the courier's `kind` of step (what the courier app offers). */
export function allowsStep(stage: Stage, kind: keyof typeof STEPS): boolean {
  return STEPS[kind].from.includes(stage);
}

/**
 * A could-not-deliver once the goods are on the way (the order in_transit): the order goes out again
 * while it has an attempt left, the job back at picked_up so the courier arrives again; else it goes
 * back to the pickup and the job continues to "returned". Undefined before then (STEPS applies).
 */
export function failedAttempt(
  status: DeliveryStatus,
  attemptLeft: boolean,
): { to: Stage; moves: DeliveryStatus[] } | undefined {
  if (status !== 'in_transit') return undefined;
  const move = attemptLeft ? 'in_transit' : 'returning';
  return { to: stageAfterFailedAttempt(status, move)!, moves: [move] };
}

/** The job's stage after a could-not-deliver move of its order, by whoever made it (a courier or an operator). */
export function stageAfterFailedAttempt(
  from: DeliveryStatus,
  to: DeliveryStatus,
): Stage | undefined {
  if (to === 'returning') return 'returning';
  return from === 'in_transit' && to === 'in_transit' ? 'picked_up' : undefined;
}

const FORWARD: readonly DeliveryStatus[] = [
  'placed',
  'accepted',
  'pickedUp',
  'in_transit',
  'delivered',
];

/** The moves still needed from `current`: forward targets already reached are dropped. */
export function movesFrom(
  current: DeliveryStatus,
  moves: readonly DeliveryStatus[],
): DeliveryStatus[] {
  const at = FORWARD.indexOf(current);
  return moves.filter((m) => {
    const i = FORWARD.indexOf(m);
    return i < 0 || at < 0 || i > at;
  });
}

/** Order statuses that end a job: its assignment and offers close with them. */
export function endsJob(status: DeliveryStatus): boolean {
  return (
    status === 'delivered' || status === 'cancelled' || status === 'failed' || status === 'returned'
  );
}
