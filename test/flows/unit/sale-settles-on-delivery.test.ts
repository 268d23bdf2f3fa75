import { describe, expect, it } from 'vitest';
import { saleSettlesOnDelivery } from '../../../src/flows/sale-settles-on-delivery.ts';
import { as, hooks, TX } from '../faces.ts';

describe("a sale's delivery settles it", () => {
  it("hands each move of a delivery order to the sales, in the move's transaction", async () => {
    const h = hooks();
    const seen: unknown[] = [];
    saleSettlesOnDelivery.wire(
      as({
        delivery: { orders: { onMove: h.add('onMove') } },
        catalog: {
          sales: {
            onDeliveryMove: async (tx: unknown, order: unknown) => void seen.push([tx, order]),
          },
        },
      }),
    );
    const order = { id: 'ord_1', status: 'delivered' };
    await (h.on('onMove')[0] as (tx: unknown, order: unknown) => Promise<void>)(TX, order);
    expect(seen).toEqual([[TX, order]]);
  });

  it('listens to nothing without a catalog or without delivery here (the sales job follows deliveries then)', () => {
    const h = hooks();
    saleSettlesOnDelivery.wire(
      as({ delivery: { orders: { onMove: h.add('onMove') } }, catalog: undefined }),
    );
    saleSettlesOnDelivery.wire(as({ delivery: undefined, catalog: { sales: {} } }));
    expect(h.registered.size).toBe(0);
  });
});
