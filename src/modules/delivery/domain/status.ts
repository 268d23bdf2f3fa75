/** Delivery order status machine (design: Delivery order states) and the partner-facing timeline. */

export type DeliveryStatus =
  | 'placed'
  | 'accepted'
  | 'pickedUp'
  | 'in_transit'
  | 'delivered'
  | 'returning'
  | 'returned'
  | 'cancelled'
  | 'failed';

export type StageStatus = 'placed' | 'accepted' | 'pickedUp' | 'in_transit' | 'delivered';
/** Statuses outside the five stages: listed after them in the timeline, in the order they happened. */
export type TerminalStatus = 'returning' | 'returned' | 'cancelled' | 'failed';

/** Why a courier could not deliver: `other` needs a note saying what happened. */
export type FailureReason = 'recipient_absent' | 'refused' | 'wrong_address' | 'other';
export const FAILURE_REASONS: readonly FailureReason[] = [
  'recipient_absent',
  'refused',
  'wrong_address',
  'other',
];

/** How people read a failure reason (dashboard, console). */
export const FAILURE_TITLES: Readonly<Record<FailureReason, string>> = Object.freeze({
  recipient_absent: 'Recipient absent',
  refused: 'Refused by the recipient',
  wrong_address: 'Wrong address',
  other: 'Other',
});

/** Statuses shown as a stop in a timeline: the order did not, or will not, reach the recipient. */
export function isStop(status: DeliveryStatus): boolean {
  return (
    status === 'returning' || status === 'returned' || status === 'cancelled' || status === 'failed'
  );
}

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = [
  'placed',
  'accepted',
  'pickedUp',
  'in_transit',
  'delivered',
  'returning',
  'returned',
  'cancelled',
  'failed',
];

export function isDeliveryStatus(v: unknown): v is DeliveryStatus {
  return typeof v === 'string' && (DELIVERY_STATUSES as readonly string[]).includes(v);
}

/** The five stages orders.track always lists, in order. */
export const STAGES: ReadonlyArray<{ status: StageStatus; title: string }> = Object.freeze([
  { status: 'placed', title: 'Order placed' },
  { status: 'accepted', title: 'Accepted by courier' },
  { status: 'pickedUp', title: 'Picked up' },
  { status: 'in_transit', title: 'In transit' },
  { status: 'delivered', title: 'Delivered' },
] as const);

const TERMINAL_TITLES: Record<TerminalStatus, string> = {
  returning: 'Returning to the pickup point',
  returned: 'Returned to the pickup point',
  cancelled: 'Cancelled',
  failed: 'Delivery failed',
};

/** Forward path, one step at a time. */
const NEXT: Partial<Record<DeliveryStatus, DeliveryStatus>> = {
  placed: 'accepted',
  accepted: 'pickedUp',
  pickedUp: 'in_transit',
  in_transit: 'delivered',
};

/**
 * partner-api.md: any state but delivered and cancelled, so a failed order can still be cancelled.
 * A returning or returned order cannot: the courier has made the trip and is bringing the goods
 * back (the return's fee policy applies instead of a refund).
 */
export function canCancel(status: DeliveryStatus): boolean {
  return (
    status !== 'delivered' &&
    status !== 'cancelled' &&
    status !== 'returning' &&
    status !== 'returned'
  );
}

/** Operators may fail an order that is still moving (not delivered, returned, cancelled or failed), a return included. */
function canFail(status: DeliveryStatus): boolean {
  return NEXT[status] !== undefined || status === 'returning';
}

/**
 * `attemptsLeft` is how many more delivery attempts an in_transit order may make: a "could not
 * deliver" outcome either sends it out again (in_transit → in_transit, while attempts are left) or
 * back to the pickup point (in_transit → returning → returned).
 */
export function canTransition(from: DeliveryStatus, to: DeliveryStatus, attemptsLeft = 0): boolean {
  if (to === 'cancelled') return canCancel(from);
  if (to === 'failed') return canFail(from);
  if (from === 'in_transit' && to === 'in_transit') return attemptsLeft > 0;
  if (to === 'returning') return from === 'in_transit';
  if (to === 'returned') return from === 'returning';
  return NEXT[from] === to;
}

/** Every status an order in `from` may move to, in state order (empty once it is final). */
export function allowedMoves(from: DeliveryStatus, attemptsLeft = 0): DeliveryStatus[] {
  return DELIVERY_STATUSES.filter((to) => canTransition(from, to, attemptsLeft));
}

/** A "could not deliver" outcome: another attempt or a return; it must say why (a FailureReason). */
export function isFailedAttempt(from: DeliveryStatus, to: DeliveryStatus): boolean {
  return (from === 'in_transit' && to === 'in_transit') || to === 'returning';
}

/** Attempts an in_transit order has left: the first trip counts as one (orders from before attempts were counted too). */
export function attemptsLeft(
  status: DeliveryStatus,
  attemptsMade: number,
  maxAttempts: number,
): number {
  return status === 'in_transit' ? Math.max(0, maxAttempts - Math.max(1, attemptsMade)) : 0;
}

/**
 * The return fee of a wallet-funded order that came back: `percent` of its delivery fee, in whole
 * pesewas (half up). The delivery fee itself is kept: the courier made the trip.
 */
export function returnFee(feePesewas: number, percent: number): number {
  return Math.round((feePesewas * percent) / 100);
}

/** One plain sentence for orders.get status_details.description. */
export function describeStatus(status: DeliveryStatus): string {
  switch (status) {
    case 'placed':
      return 'The order has been placed and is waiting for a courier.';
    case 'accepted':
      return 'A courier has accepted the order and is on the way to the pickup point.';
    case 'pickedUp':
      return 'The courier has picked up the package.';
    case 'in_transit':
      return 'The package is on its way to the recipient.';
    case 'delivered':
      return 'The package has been delivered to the recipient.';
    case 'cancelled':
      return 'The order has been cancelled.';
    case 'returning':
      return 'The package could not be delivered and is on its way back to the pickup point.';
    case 'returned':
      return 'The package could not be delivered and was returned to the pickup point.';
    case 'failed':
      return 'The delivery could not be completed.';
  }
}

export interface TimelineEntry {
  status: DeliveryStatus;
  title: string;
  timestamp?: string;
  completed: boolean;
}

/**
 * The five stages in order, then `returning`, `returned`, `failed` and `cancelled` entries when
 * they happened, in time order (a failed order may later be cancelled: both show).
 * A stage is completed when it was reached or a later stage was (history may
 * skip a step, e.g. an operator fix); timestamp = the first time it was reached.
 */
export function buildTimeline(
  history: ReadonlyArray<{ status: DeliveryStatus; at: Date }>,
): TimelineEntry[] {
  const sorted = [...history].sort((a, b) => a.at.getTime() - b.at.getTime());
  const firstAt = new Map<DeliveryStatus, Date>();
  for (const h of sorted) if (!firstAt.has(h.status)) firstAt.set(h.status, h.at);

  let furthest = -1;
  STAGES.forEach((s, i) => {
    if (firstAt.has(s.status)) furthest = i;
  });

  const timeline: TimelineEntry[] = STAGES.map((s, i) => {
    const at = firstAt.get(s.status);
    const entry: TimelineEntry = { status: s.status, title: s.title, completed: i <= furthest };
    if (at) entry.timestamp = at.toISOString();
    return entry;
  });

  const terminals = (['returning', 'returned', 'failed', 'cancelled'] as const)
    .filter((t) => firstAt.has(t))
    .sort((a, b) => firstAt.get(a)!.getTime() - firstAt.get(b)!.getTime());
  for (const t of terminals) {
    timeline.push({
      status: t,
      title: TERMINAL_TITLES[t],
      timestamp: firstAt.get(t)!.toISOString(),
      completed: true,
    });
  }
  return timeline;
}
