import { defineOperation } from '../../../platform/http/operation.ts';
import { strictObject } from '../../../platform/http/schemas.ts';
import type { TestClocksService } from '../service.ts';
import { ClockId, ClockResponse, ClockTime, clockAnswer, EXAMPLE_CLOCK } from './common.ts';

const AdvanceBody = strictObject({
  test_clock_id: ClockId,
  frozen_time: ClockTime(
    "The clock's new time: after its frozen_time, by at most 60 days (advance several times for longer)",
  ),
});

export const testClocksAdvance = (clocks: TestClocksService) =>
  defineOperation({
    id: 'delivery.test_clocks.advance',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/test_clocks.advance',
    summary:
      'Move a test clock forward, running every step that falls due meanwhile (staging keys only)',
    description:
      "The clock stops at each moment something of its orders falls due, in time order: the sandbox courier's offer, acceptance, pickup, transit and delivery (one status per step of SANDBOX_COURIER_STEP_SECONDS, 30 seconds by default), quotes expiring, delivery windows missed (`delivery.order.late`), and retries of webhook deliveries your endpoint failed (on the webhook schedule, in clock time). Each event is stamped with the clock's time at its step and sent to your webhook as usual. The answer comes once the clock is ready at the new time; a second advance or a delete meanwhile answers 409 `TEST_CLOCK_ADVANCING`.",
    scope: 'delivery:write',
    stagingOnly: true,
    access: 'write',
    body: AdvanceBody,
    errorCodes: [
      'TEST_CLOCK_NOT_FOUND',
      'TEST_CLOCK_BACKWARDS',
      'TEST_CLOCK_ADVANCE_TOO_FAR',
      'TEST_CLOCK_ADVANCING',
    ],
    response: ClockResponse,
    examples: [
      {
        name: 'advance',
        summary: 'An hour later',
        request: { test_clock_id: EXAMPLE_CLOCK.id, frozen_time: '2026-12-04T18:00:00Z' },
        response: {
          status: 'success',
          message: 'Test clock advanced',
          data: { ...EXAMPLE_CLOCK, frozen_time: '2026-12-04T18:00:00.000Z' },
        },
      },
    ],
    handler: async ({ body, auth }) =>
      clockAnswer(
        'Test clock advanced',
        await clocks.advance(auth, body.test_clock_id, new Date(body.frozen_time)),
      ),
  });
