import { describe, expect, it } from 'vitest';
import { orderGetsDispatchJob } from '../../../src/flows/order-gets-dispatch-job.ts';
import { as, hooks } from '../faces.ts';

describe('an order gets its dispatch job', () => {
  it("adds dispatch's placement statement to delivery's insert", () => {
    const h = hooks();
    const onPlace = () => ({ sql: 'insert into dispatch_jobs', params: [] });
    orderGetsDispatchJob.wire(
      as({
        delivery: { orders: { onPlace: h.add('onPlace') } },
        dispatch: { offers: { onPlace } },
      }),
    );
    expect(h.on('onPlace')).toEqual([onPlace]);
  });

  it('adds nothing where this instance dispatches no orders', () => {
    const h = hooks();
    orderGetsDispatchJob.wire(
      as({ delivery: { orders: { onPlace: h.add('onPlace') } }, dispatch: undefined }),
    );
    expect(h.registered.size).toBe(0);
  });
});
