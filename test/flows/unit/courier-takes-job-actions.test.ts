import { describe, expect, it } from 'vitest';
import { courierTakesJobActions } from '../../../src/flows/courier-takes-job-actions.ts';
import { as, hooks } from '../faces.ts';

type Handler = (input: {
  courierId: string;
  actionId: string;
  at: Date;
  payload: Record<string, unknown>;
  afterCommit: (work: () => Promise<void>) => void;
}) => Promise<unknown>;

const afterCommit = () => undefined;

describe('a courier takes job actions', () => {
  const wired = () => {
    const h = hooks();
    const calls: unknown[][] = [];
    const step =
      (name: string) =>
      async (...args: unknown[]) => {
        calls.push([name, ...args]);
        return { stage: name, status: 'assigned' };
      };
    const service = Object.fromEntries(
      [
        'accept',
        'decline',
        'arrivedAtPickup',
        'pickedUp',
        'arrived',
        'couldNotDeliver',
        'returned',
      ].map((n) => [n, step(n)]),
    );
    courierTakesJobActions.wire(
      as({ courierActions: { register: h.add('register') }, dispatch: { service } }),
    );
    const run = (kind: string, payload: Record<string, unknown>) =>
      (h.on(`register:${kind}`)[0] as Handler)({
        courierId: 'cou_1',
        actionId: 'act_1',
        at: new Date(),
        payload,
        afterCommit,
      });
    return { h, calls, run };
  };

  it("registers each job action as a courier app kind that calls dispatch in the action's unit", async () => {
    const { h, calls, run } = wired();
    expect([...h.registered.keys()]).toEqual(
      [
        'accept',
        'decline',
        'arrived_at_pickup',
        'picked_up',
        'arrived',
        'could_not_deliver',
        'returned',
      ].map((k) => `register:${k}`),
    );
    expect(await run('accept', { order_id: 'ord_1' })).toEqual({
      stage: 'accept',
      status: 'assigned',
    });
    await run('could_not_deliver', {
      order_id: 'ord_1',
      reason: 'recipient_absent',
      note: 'gate locked',
    });
    expect(calls).toEqual([
      ['accept', 'cou_1', 'ord_1', { afterCommit }],
      ['couldNotDeliver', 'cou_1', 'ord_1', 'recipient_absent', 'gate locked', { afterCommit }],
    ]);
  });

  it('refuses an action without the order id', async () => {
    const { run } = wired();
    await expect(run('picked_up', {})).rejects.toMatchObject({ statusCode: 400 });
  });

  it('registers nothing where this instance dispatches no orders', () => {
    const h = hooks();
    courierTakesJobActions.wire(
      as({ courierActions: { register: h.add('register') }, dispatch: undefined }),
    );
    expect(h.registered.size).toBe(0);
  });
});
