import { describe, expect, it } from 'vitest';
import {
  allowsStep,
  endsJob,
  failedAttempt,
  movesFrom,
  stageAfterFailedAttempt,
  STEPS,
} from './actions.ts';

describe('movesFrom', () => {
  it('keeps the moves still ahead of the order and drops those it already reached', () => {
    expect(movesFrom('accepted', STEPS.picked_up.moves)).toEqual(['pickedUp', 'in_transit']);
    expect(movesFrom('pickedUp', STEPS.picked_up.moves)).toEqual(['in_transit']);
    expect(movesFrom('in_transit', STEPS.picked_up.moves)).toEqual([]);
    expect(movesFrom('in_transit', STEPS.delivered.moves)).toEqual(['delivered']);
    expect(movesFrom('pickedUp', STEPS.could_not_deliver.moves)).toEqual(['failed']);
  });
});

describe('STEPS', () => {
  it('allows each action only from the stages before it', () => {
    expect(STEPS.arrived_at_pickup.from).toEqual(['accepted']);
    expect(STEPS.delivered.from).not.toContain('accepted');
    expect(STEPS.arrived.moves).toEqual([]);
  });
});

describe('failedAttempt', () => {
  it('sends goods on the way out again while an attempt is left, else back to the pickup; before then STEPS applies', () => {
    expect(failedAttempt('in_transit', true)).toEqual({ to: 'picked_up', moves: ['in_transit'] });
    expect(failedAttempt('in_transit', false)).toEqual({ to: 'returning', moves: ['returning'] });
    expect(failedAttempt('accepted', true)).toBeUndefined();
    expect(failedAttempt('pickedUp', false)).toBeUndefined();
  });

  it('puts a job whose order an operator moved the same way at the same stage', () => {
    expect(stageAfterFailedAttempt('in_transit', 'in_transit')).toBe('picked_up');
    expect(stageAfterFailedAttempt('in_transit', 'returning')).toBe('returning');
    expect(stageAfterFailedAttempt('pickedUp', 'in_transit')).toBeUndefined();
    expect(stageAfterFailedAttempt('in_transit', 'delivered')).toBeUndefined();
  });

  it('lets only a returning job take "returned", and a returning job no could-not-deliver', () => {
    expect(allowsStep('returning', 'returned')).toBe(true);
    expect(allowsStep('at_dropoff', 'returned')).toBe(false);
    expect(allowsStep('returning', 'could_not_deliver')).toBe(false);
    expect(allowsStep('returning', 'delivered')).toBe(false);
  });
});

describe('endsJob', () => {
  it('is true for delivered, cancelled and failed only', () => {
    expect(
      [
        'placed',
        'accepted',
        'pickedUp',
        'in_transit',
        'delivered',
        'cancelled',
        'failed',
        'returning',
        'returned',
      ].filter((s) => endsJob(s as never)),
    ).toEqual(['delivered', 'cancelled', 'failed', 'returned']);
  });
});
