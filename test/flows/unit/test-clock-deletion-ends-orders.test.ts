import { describe, expect, it } from 'vitest';
import { testClockDeletionEndsOrders } from '../../../src/flows/test-clock-deletion-ends-orders.ts';
import { as, hooks } from '../faces.ts';

describe("a test clock's deletion ends its orders", () => {
  it("ends the deleted clock's orders through delivery", async () => {
    const h = hooks();
    const ended: string[] = [];
    testClockDeletionEndsOrders.wire(
      as({
        testClocks: { onDelete: h.add('onDelete') },
        delivery: { orders: { endOnDeletedClock: async (id: string) => ended.push(id) } },
      }),
    );
    const [ending] = h.on('onDelete') as unknown as { end: (id: string) => Promise<void> }[];
    await ending!.end('clk_1');
    expect(ended).toEqual(['clk_1']);
  });

  it('registers nothing without clocks or delivery', () => {
    const h = hooks();
    testClockDeletionEndsOrders.wire(as({ testClocks: undefined, delivery: undefined }));
    expect(h.registered.size).toBe(0);
  });
});
