import { describe, expect, it } from 'vitest';
import { courierPositionExtendsTrail } from '../../../src/flows/courier-position-extends-trail.ts';
import { as, hooks } from '../faces.ts';

describe("a courier's position extends their jobs' trails", () => {
  it("gives each newest position of a courier holding a job to dispatch's trail", () => {
    const registered: unknown[][] = [];
    const onPosition = async () => {};
    const holdsJob = (courierId: string) => `holds(${courierId})`;
    courierPositionExtendsTrail.wire(
      as({
        couriers: { onPosition: (...args: unknown[]) => registered.push(args) },
        dispatch: { trail: { onPosition, holdsJob } },
      }),
    );
    // The listener, and its condition asked inside the report's update.
    expect(registered).toEqual([[onPosition, holdsJob]]);
  });

  it('keeps positions to the couriers module without dispatch', () => {
    const h = hooks();
    courierPositionExtendsTrail.wire(
      as({ couriers: { onPosition: h.add('onPosition') }, dispatch: undefined }),
    );
    expect(h.registered.size).toBe(0);
  });
});
