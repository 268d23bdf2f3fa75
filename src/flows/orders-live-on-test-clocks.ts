import type { OrderClocks } from '../modules/delivery/index.ts';
import type { TestClocksService } from '../modules/testclocks/index.ts';
import { errors } from '../platform/errors.ts';

/**
 * Delivery's `OrderClocks` port: the time of the sandbox test clock an order or estimate names,
 * from the test clocks (asked at request time, once they exist; without them no clock is found).
 */
export const orderClocks = (ctx: { testClocks: TestClocksService | undefined }): OrderClocks => ({
  timeOf: async (owner, clockId) => {
    if (!ctx.testClocks)
      throw errors.testClockNotFound('Test clocks are not served here; leave test_clock_id out.');
    return ctx.testClocks.timeOf(owner, clockId);
  },
});
