import { defineOperation } from '../../../platform/http/operation.ts';
import type { TestClocksService } from '../service.ts';
import { ClockIdBody, ClockResponse, clockAnswer, EXAMPLE_CLOCK } from './common.ts';

export const testClocksGet = (clocks: TestClocksService) =>
  defineOperation({
    id: 'delivery.test_clocks.get',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/test_clocks.get',
    summary: "A test clock's time and status (staging keys only)",
    scope: 'delivery:read',
    stagingOnly: true,
    access: 'read',
    body: ClockIdBody,
    errorCodes: ['TEST_CLOCK_NOT_FOUND'],
    response: ClockResponse,
    examples: [
      {
        name: 'get',
        summary: 'A ready clock',
        request: { test_clock_id: EXAMPLE_CLOCK.id },
        response: { status: 'success', message: 'Test clock retrieved', data: EXAMPLE_CLOCK },
      },
    ],
    handler: async ({ body, auth }) =>
      clockAnswer('Test clock retrieved', await clocks.get(auth, body.test_clock_id)),
  });
