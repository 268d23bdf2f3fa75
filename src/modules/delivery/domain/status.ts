/** Delivery order status machine (design: Delivery order states) and the partner-facing timeline. */

export type DeliveryStatus = 'placed' | 'accepted' | 'pickedUp' | 'in_transit' | 'delivered' | 'cancelled' | 'failed';

export type StageStatus = 'placed' | 'accepted' | 'pickedUp' | 'in_transit' | 'delivered';
export type TerminalStatus = 'cancelled' | 'failed';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = [
  'placed',
  'accepted',
  'pickedUp',
  'in_transit',
  'delivered',
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

const TERMINAL_TITLES: Record<TerminalStatus, string> = { cancelled: 'Cancelled', failed: 'Delivery failed' };

/** Forward path, one step at a time. */
const NEXT: Partial<Record<DeliveryStatus, DeliveryStatus>> = {
  placed: 'accepted',
  accepted: 'pickedUp',
  pickedUp: 'in_transit',
  in_transit: 'delivered',
};

/** partner-api.md: any state but delivered and cancelled, so a failed order can still be cancelled. */
export function canCancel(status: DeliveryStatus): boolean {
  return status !== 'delivered' && status !== 'cancelled';
}

/** Operators may fail an order that is still moving (not delivered, cancelled or failed). */
function canFail(status: DeliveryStatus): boolean {
  return NEXT[status] !== undefined;
}

export function canTransition(from: DeliveryStatus, to: DeliveryStatus): boolean {
  if (to === 'cancelled') return canCancel(from);
  if (to === 'failed') return canFail(from);
  return NEXT[from] === to;
}

/** Every status an order in `from` may move to, in state order (empty once it is final). */
export function allowedMoves(from: DeliveryStatus): DeliveryStatus[] {
  return DELIVERY_STATUSES.filter((to) => canTransition(from, to));
}

/** Next status a sandbox courier moves the order to, or null when it is finished. */
export function nextSandboxStatus(status: DeliveryStatus): DeliveryStatus | null {
  return NEXT[status] ?? null;
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
 * The five stages in order, then a `failed` and/or `cancelled` entry when they
 * happened (a failed order may later be cancelled: both show, in time order).
 * A stage is completed when it was reached or a later stage was (history may
 * skip a step, e.g. an operator fix); timestamp = the first time it was reached.
 */
export function buildTimeline(history: ReadonlyArray<{ status: DeliveryStatus; at: Date }>): TimelineEntry[] {
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

  const terminals = (['failed', 'cancelled'] as const)
    .filter((t) => firstAt.has(t))
    .sort((a, b) => firstAt.get(a)!.getTime() - firstAt.get(b)!.getTime());
  for (const t of terminals) {
    timeline.push({ status: t, title: TERMINAL_TITLES[t], timestamp: firstAt.get(t)!.toISOString(), completed: true });
  }
  return timeline;
}
