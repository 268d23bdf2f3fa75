import { describe, expect, it } from 'vitest';
import { courierPositionExtendsTrail } from '../../../src/flows/courier-position-extends-trail.ts';
import { as, hooks } from '../faces.ts';

describe("a courier's position extends their jobs' trails", () => {
  it("gives each newest position to dispatch's trail", () => {
    const h = hooks();
    const onPosition = async () => {};
    courierPositionExtendsTrail.wire(
      as({ couriers: { onPosition: h.add('onPosition') }, dispatch: { trail: { onPosition } } }),
    );
    expect(h.on('onPosition')).toEqual([onPosition]);
  });

  it('keeps positions to the couriers module without dispatch', () => {
    const h = hooks();
    courierPositionExtendsTrail.wire(
      as({ couriers: { onPosition: h.add('onPosition') }, dispatch: undefined }),
    );
    expect(h.registered.size).toBe(0);
  });
});
