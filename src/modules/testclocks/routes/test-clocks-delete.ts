import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../platform/http/operation.ts';
import { DeliverySuccess } from '../../../platform/http/openapi-shapes.ts';
import type { TestClocksService } from '../service.ts';
import { ClockIdBody, EXAMPLE_CLOCK } from './common.ts';

export const testClocksDelete = (clocks: TestClocksService) =>
  defineOperation({
    id: 'delivery.test_clocks.delete',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/test_clocks.delete',
    summary: 'Delete a test clock (staging keys only)',
    description:
      'Ends the clock\'s orders in real time: each still open is cancelled (its delivery.order.cancelled webhook, note "Test clock deleted"), one on its way back is returned; ended orders stay as they are, and pending webhook deliveries of the clock go back to real-time retries. The clock is then no longer found, and no new order can name it. A delete cut short can be sent again.',
    scope: 'delivery:write',
    stagingOnly: true,
    access: 'write',
    body: ClockIdBody,
    errorCodes: ['TEST_CLOCK_NOT_FOUND', 'TEST_CLOCK_ADVANCING'],
    response: DeliverySuccess(
      Type.Object({
        id: Type.String(),
        object: Type.Literal('test_clock'),
        deleted: Type.Literal(true),
      }),
    ),
    examples: [
      {
        name: 'delete',
        summary: 'A clock deleted',
        request: { test_clock_id: EXAMPLE_CLOCK.id },
        response: {
          status: 'success',
          message: 'Test clock deleted',
          data: { id: EXAMPLE_CLOCK.id, object: 'test_clock', deleted: true },
        },
      },
    ],
    handler: async ({ body, auth }) => {
      const clock = await clocks.remove(auth, body.test_clock_id);
      return {
        body: {
          status: 'success',
          message: 'Test clock deleted',
          data: { id: clock.id, object: 'test_clock', deleted: true },
        },
      };
    },
  });
