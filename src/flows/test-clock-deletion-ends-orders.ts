import type { DeliveryModule } from '../modules/delivery/index.ts';
import type { TestClocksService } from '../modules/testclocks/index.ts';
import { defineFlow } from '../platform/module.ts';

/**
 * A deleted sandbox test clock leaves no order frozen in its time: delivery ends each of the clock's
 * open orders in real time (cancelled, or returned when on its way back), with its webhook.
 */
export const testClockDeletionEndsOrders = defineFlow({
  name: "a test clock's deletion ends its orders",
  wire: ({
    testClocks,
    delivery,
  }: {
    testClocks: TestClocksService | undefined;
    delivery: DeliveryModule | undefined;
  }) => {
    if (testClocks && delivery)
      testClocks.onDelete({
        end: async (clockId) => void (await delivery.orders.endOnDeletedClock(clockId)),
      });
  },
});
