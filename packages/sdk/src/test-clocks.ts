import type { OperationId } from './operations.ts';
import type { TestClockDeletedResponse, TestClockResponse, TestClocksResponse } from './types.ts';

type Call = <T>(id: OperationId, body?: unknown) => Promise<T>;

/**
 * Sandbox test clocks (staging keys only): create orders (and estimates) with `test_clock_id` to
 * have them live in the clock's time, then advance it to run their offers, moves and windows in
 * order, each webhook event stamped with the clock's time.
 */
export function testClocksApi(call: Call) {
  return {
    /** A clock frozen at `frozenTime` (ISO 8601 with its offset, within 365 days of today). */
    create: (frozenTime: string, name?: string) =>
      call<TestClockResponse>(
        'delivery.test_clocks.create',
        name === undefined ? { frozen_time: frozenTime } : { frozen_time: frozenTime, name },
      ),
    list: (limit?: number) =>
      call<TestClocksResponse>('delivery.test_clocks.list', limit === undefined ? {} : { limit }),
    get: (testClockId: string) =>
      call<TestClockResponse>('delivery.test_clocks.get', { test_clock_id: testClockId }),
    /** Moves the clock to `frozenTime` (later, by at most 60 days); answers once it is ready there. */
    advance: (testClockId: string, frozenTime: string) =>
      call<TestClockResponse>('delivery.test_clocks.advance', {
        test_clock_id: testClockId,
        frozen_time: frozenTime,
      }),
    delete: (testClockId: string) =>
      call<TestClockDeletedResponse>('delivery.test_clocks.delete', {
        test_clock_id: testClockId,
      }),
  };
}
