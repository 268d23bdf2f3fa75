import { describe, expect, it } from 'vitest';
import {
  DELIVERY_STATUSES,
  STAGES,
  allowedMoves,
  buildTimeline,
  canCancel,
  canTransition,
  describeStatus,
  isDeliveryStatus,
  nextSandboxStatus,
} from './status.ts';
import type { DeliveryStatus } from './status.ts';

/** Every allowed move; everything else must be refused. */
const ALLOWED: ReadonlyArray<readonly [DeliveryStatus, DeliveryStatus]> = [
  ['placed', 'accepted'],
  ['accepted', 'pickedUp'],
  ['pickedUp', 'in_transit'],
  ['in_transit', 'delivered'],
  ['placed', 'failed'],
  ['accepted', 'failed'],
  ['pickedUp', 'failed'],
  ['in_transit', 'failed'],
  ['placed', 'cancelled'],
  ['accepted', 'cancelled'],
  ['pickedUp', 'cancelled'],
  ['in_transit', 'cancelled'],
  ['failed', 'cancelled'],
];

describe('allowedMoves', () => {
  it('lists exactly the allowed moves from each status, in state order', () => {
    for (const from of DELIVERY_STATUSES) {
      expect(allowedMoves(from), from).toEqual(DELIVERY_STATUSES.filter((to) => ALLOWED.some(([f, t]) => f === from && t === to)));
    }
    expect(allowedMoves('accepted')).toEqual(['pickedUp', 'cancelled', 'failed']);
    expect(allowedMoves('delivered')).toEqual([]);
  });
});

describe('canTransition', () => {
  const all = DELIVERY_STATUSES.flatMap((from) => DELIVERY_STATUSES.map((to) => [from, to] as const));
  it('covers all 49 pairs', () => expect(all).toHaveLength(49));

  it.each(all)('%s → %s', (from, to) => {
    const expected = ALLOWED.some(([f, t]) => f === from && t === to);
    expect(canTransition(from, to)).toBe(expected);
  });

  it('lets nothing leave delivered or cancelled', () => {
    for (const to of DELIVERY_STATUSES) {
      expect(canTransition('delivered', to)).toBe(false);
      expect(canTransition('cancelled', to)).toBe(false);
    }
  });
});

describe('canCancel', () => {
  it.each<[DeliveryStatus, boolean]>([
    ['placed', true],
    ['accepted', true],
    ['pickedUp', true],
    ['in_transit', true],
    ['failed', true],
    ['delivered', false],
    ['cancelled', false],
  ])('%s → %s', (status, expected) => {
    expect(canCancel(status)).toBe(expected);
  });
});

describe('nextSandboxStatus', () => {
  it('walks the forward path and stops', () => {
    const seen: DeliveryStatus[] = ['placed'];
    let s: DeliveryStatus | null = 'placed';
    while ((s = nextSandboxStatus(s))) seen.push(s);
    expect(seen).toEqual(['placed', 'accepted', 'pickedUp', 'in_transit', 'delivered']);
    expect(nextSandboxStatus('cancelled')).toBeNull();
    expect(nextSandboxStatus('failed')).toBeNull();
  });

  it('only proposes allowed transitions', () => {
    for (const s of DELIVERY_STATUSES) {
      const next = nextSandboxStatus(s);
      if (next) expect(canTransition(s, next)).toBe(true);
    }
  });
});

describe('STAGES and describeStatus', () => {
  it('lists the five stages with their titles', () => {
    expect(STAGES).toEqual([
      { status: 'placed', title: 'Order placed' },
      { status: 'accepted', title: 'Accepted by courier' },
      { status: 'pickedUp', title: 'Picked up' },
      { status: 'in_transit', title: 'In transit' },
      { status: 'delivered', title: 'Delivered' },
    ]);
  });

  it('describes every status in one sentence', () => {
    for (const s of DELIVERY_STATUSES) {
      const text = describeStatus(s);
      expect(text).toMatch(/^[A-Z][^.]*\.$/);
    }
  });

  it('recognises status strings', () => {
    expect(isDeliveryStatus('in_transit')).toBe(true);
    expect(isDeliveryStatus('order_created')).toBe(false);
    expect(isDeliveryStatus(3)).toBe(false);
  });
});

describe('buildTimeline', () => {
  const t = (min: number) => new Date(Date.UTC(2025, 5, 2, 10, min));

  it('lists all five stages for a new order', () => {
    expect(buildTimeline([{ status: 'placed', at: t(0) }])).toEqual([
      { status: 'placed', title: 'Order placed', timestamp: '2025-06-02T10:00:00.000Z', completed: true },
      { status: 'accepted', title: 'Accepted by courier', completed: false },
      { status: 'pickedUp', title: 'Picked up', completed: false },
      { status: 'in_transit', title: 'In transit', completed: false },
      { status: 'delivered', title: 'Delivered', completed: false },
    ]);
  });

  it('completes every stage of a delivered order, whatever the input order', () => {
    const tl = buildTimeline([
      { status: 'delivered', at: t(40) },
      { status: 'placed', at: t(0) },
      { status: 'in_transit', at: t(30) },
      { status: 'accepted', at: t(10) },
      { status: 'pickedUp', at: t(20) },
    ]);
    expect(tl.map((e) => e.status)).toEqual(['placed', 'accepted', 'pickedUp', 'in_transit', 'delivered']);
    expect(tl.every((e) => e.completed && e.timestamp)).toBe(true);
    expect(tl[4]!.timestamp).toBe('2025-06-02T10:40:00.000Z');
  });

  it('appends a cancelled entry', () => {
    const tl = buildTimeline([
      { status: 'placed', at: t(0) },
      { status: 'accepted', at: t(5) },
      { status: 'cancelled', at: t(9) },
    ]);
    expect(tl).toHaveLength(6);
    expect(tl.filter((e) => e.completed).map((e) => e.status)).toEqual(['placed', 'accepted', 'cancelled']);
    expect(tl[5]).toEqual({ status: 'cancelled', title: 'Cancelled', timestamp: '2025-06-02T10:09:00.000Z', completed: true });
  });

  it('appends failed, then cancelled when a failed order is cancelled', () => {
    const tl = buildTimeline([
      { status: 'placed', at: t(0) },
      { status: 'cancelled', at: t(50) },
      { status: 'failed', at: t(30) },
    ]);
    expect(tl.slice(5).map((e) => e.status)).toEqual(['failed', 'cancelled']);
    expect(tl[5]!.title).toBe('Delivery failed');
  });

  it('marks skipped earlier stages completed without inventing timestamps', () => {
    const tl = buildTimeline([
      { status: 'placed', at: t(0) },
      { status: 'pickedUp', at: t(20) },
    ]);
    expect(tl[1]).toEqual({ status: 'accepted', title: 'Accepted by courier', completed: true });
    expect(tl[2]!.completed).toBe(true);
    expect(tl[3]!.completed).toBe(false);
  });

  it('keeps the first time a status was reached', () => {
    const tl = buildTimeline([
      { status: 'placed', at: t(0) },
      { status: 'placed', at: t(7) },
    ]);
    expect(tl[0]!.timestamp).toBe('2025-06-02T10:00:00.000Z');
  });

  it('still lists the five stages for an empty history', () => {
    const tl = buildTimeline([]);
    expect(tl).toHaveLength(5);
    expect(tl.some((e) => e.completed)).toBe(false);
  });
});
