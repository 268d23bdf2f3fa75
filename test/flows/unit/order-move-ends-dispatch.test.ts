import { describe, expect, it } from 'vitest';
import { orderMoveEndsDispatch } from '../../../src/flows/order-move-ends-dispatch.ts';
import { saleSettlesOnDelivery } from '../../../src/flows/sale-settles-on-delivery.ts';
import { as, hooks } from '../faces.ts';

describe("an order's move ends or updates its dispatch job", () => {
  it("tells dispatch of every move, before the sale's listener", () => {
    const h = hooks();
    const onMove = async () => {};
    const delivery = { orders: { onMove: h.add('onMove') } };
    orderMoveEndsDispatch.wire(as({ delivery, dispatch: { offers: { onMove } } }));
    saleSettlesOnDelivery.wire(
      as({ delivery, catalog: { sales: { onDeliveryMove: async () => {} } } }),
    );
    expect(h.on('onMove')).toHaveLength(2);
    expect(h.on('onMove')[0]).toBe(onMove);
  });

  it('tells nobody where this instance dispatches no orders', () => {
    const h = hooks();
    orderMoveEndsDispatch.wire(
      as({ delivery: { orders: { onMove: h.add('onMove') } }, dispatch: undefined }),
    );
    expect(h.registered.size).toBe(0);
  });
});
