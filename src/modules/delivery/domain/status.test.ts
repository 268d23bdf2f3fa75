import { describe, expect, it } from 'vitest';
import {
  DELIVERY_STATUSES,
  STAGES,
  allowedMoves,
  attemptsLeft,
  buildTimeline,
  canCancel,
  canTransition,
  describeStatus,
  isDeliveryStatus,
  isFailedAttempt,
  isStop,
  returnFee,
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
  ['in_transit', 'returning'],
  ['returning', 'returned'],
  ['returning', 'failed'],
];

describe('allowedMoves', () => {
  it('lists exactly the allowed moves from each status, in state order', () => {
    for (const from of DELIVERY_STATUSES) {
      expect(allowedMoves(from), from).toEqual(
        DELIVERY_STATUSES.filter((to) => ALLOWED.some(([f, t]) => f === from && t === to)),
      );
    }
    expect(allowedMoves('accepted')).toEqual(['pickedUp', 'cancelled', 'failed']);
    expect(allowedMoves('delivered')).toEqual([]);
  });
});

describe('canTransition', () => {
  const all = DELIVERY_STATUSES.flatMap((from) =>
    DELIVERY_STATUSES.map((to) => [from, to] as const),
  );
  it('covers all 81 pairs', () => expect(all).toHaveLength(81));

  it.each(all)('%s → %s', (from, to) => {
    const expected = ALLOWED.some(([f, t]) => f === from && t === to);
    expect(canTransition(from, to)).toBe(expected);
  });

  it('lets nothing leave delivered, returned or cancelled, whatever attempts are left', () => {
    for (const to of DELIVERY_STATUSES) {
      expect(canTransition('delivered', to, 5)).toBe(false);
      expect(canTransition('returned', to, 5)).toBe(false);
      expect(canTransition('cancelled', to, 5)).toBe(false);
    }
  });

  it('sends an in_transit order out again only while attempts are left', () => {
    expect(canTransition('in_transit', 'in_transit', 1)).toBe(true);
    expect(canTransition('in_transit', 'in_transit', 0)).toBe(false);
    expect(canTransition('pickedUp', 'pickedUp', 3)).toBe(false);
    expect(canTransition('returning', 'in_transit', 3)).toBe(false);
    expect(allowedMoves('in_transit', 1)).toEqual([
      'in_transit',
      'delivered',
      'returning',
      'cancelled',
      'failed',
    ]);
    expect(allowedMoves('returning', 1)).toEqual(['returned', 'failed']);
  });
});

describe('failed attempts', () => {
  it('counts the first trip as one attempt, and only in_transit orders have attempts left', () => {
    expect(attemptsLeft('in_transit', 1, 2)).toBe(1);
    expect(attemptsLeft('in_transit', 0, 2)).toBe(1);
    expect(attemptsLeft('in_transit', 2, 2)).toBe(0);
    expect(attemptsLeft('in_transit', 5, 2)).toBe(0);
    expect(attemptsLeft('in_transit', 1, 1)).toBe(0);
    expect(attemptsLeft('pickedUp', 0, 3)).toBe(0);
    expect(attemptsLeft('returning', 1, 3)).toBe(0);
  });

  it('names the could-not-deliver moves: another attempt and the return', () => {
    expect(isFailedAttempt('in_transit', 'in_transit')).toBe(true);
    expect(isFailedAttempt('in_transit', 'returning')).toBe(true);
    expect(isFailedAttempt('in_transit', 'delivered')).toBe(false);
    expect(isFailedAttempt('in_transit', 'failed')).toBe(false);
    expect(isFailedAttempt('returning', 'returned')).toBe(false);
  });

  it('marks the statuses that did not reach the recipient as stops', () => {
    expect(DELIVERY_STATUSES.filter(isStop)).toEqual([
      'returning',
      'returned',
      'cancelled',
      'failed',
    ]);
  });

  it('prices the return fee as a share of the delivery fee, in whole pesewas', () => {
    expect(returnFee(2550, 50)).toBe(1275);
    expect(returnFee(2551, 50)).toBe(1276);
    expect(returnFee(2550, 0)).toBe(0);
    expect(returnFee(2550, 100)).toBe(2550);
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
    ['returning', false],
    ['returned', false],
    ['cancelled', false],
  ])('%s → %s', (status, expected) => {
    expect(canCancel(status)).toBe(expected);
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
      {
        status: 'placed',
        title: 'Order placed',
        timestamp: '2025-06-02T10:00:00.000Z',
        completed: true,
      },
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
    expect(tl.map((e) => e.status)).toEqual([
      'placed',
      'accepted',
      'pickedUp',
      'in_transit',
      'delivered',
    ]);
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
    expect(tl.filter((e) => e.completed).map((e) => e.status)).toEqual([
      'placed',
      'accepted',
      'cancelled',
    ]);
    expect(tl[5]).toEqual({
      status: 'cancelled',
      title: 'Cancelled',
      timestamp: '2025-06-02T10:09:00.000Z',
      completed: true,
    });
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

  it('appends returning then returned after the five stages, delivered left open', () => {
    const tl = buildTimeline([
      { status: 'placed', at: t(0) },
      { status: 'accepted', at: t(5) },
      { status: 'pickedUp', at: t(10) },
      { status: 'in_transit', at: t(15) },
      { status: 'in_transit', at: t(30) },
      { status: 'returned', at: t(60) },
      { status: 'returning', at: t(45) },
    ]);
    expect(tl.map((e) => [e.status, e.completed])).toEqual([
      ['placed', true],
      ['accepted', true],
      ['pickedUp', true],
      ['in_transit', true],
      ['delivered', false],
      ['returning', true],
      ['returned', true],
    ]);
    expect(tl[3]!.timestamp).toBe('2025-06-02T10:15:00.000Z');
    expect(tl[5]).toEqual({
      status: 'returning',
      title: 'Returning to the pickup point',
      timestamp: '2025-06-02T10:45:00.000Z',
      completed: true,
    });
    expect(tl[6]!.title).toBe('Returned to the pickup point');
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
