import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../platform/http/operation.ts';
import { strictObject } from '../../../platform/http/schemas.ts';
import type { TestClocksService } from '../service.ts';
import { ClockResponse, ClockTime, clockAnswer, EXAMPLE_CLOCK } from './common.ts';

const CreateBody = strictObject({
  frozen_time: ClockTime(
    'Where the clock starts (date-time with its offset), within 365 days of today. Orders created on the clock take this as their "now"',
  ),
  name: Type.Optional(
    Type.String({ maxLength: 100, description: 'A label for you (up to 100 characters)' }),
  ),
});

export const testClocksCreate = (clocks: TestClocksService) =>
  defineOperation({
    id: 'delivery.test_clocks.create',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/test_clocks.create',
    summary: 'Create a sandbox test clock frozen at a time of your choosing (staging keys only)',
    description:
      'Orders (and estimates) created with its id as `test_clock_id` live in its time: the sandbox courier, dispatch and the delivery window check move them only when you advance the clock, and their webhook events carry its time.',
    scope: 'delivery:write',
    stagingOnly: true,
    access: 'write',
    body: CreateBody,
    errorCodes: ['TEST_CLOCK_TIME_OUT_OF_RANGE', 'TEST_CLOCK_LIMIT_REACHED'],
    response: ClockResponse,
    successStatus: 201,
    examples: [
      {
        name: 'create',
        summary: 'A clock frozen on a Friday evening',
        request: { frozen_time: '2026-12-04T17:00:00Z', name: 'Friday evening rush' },
        response: { status: 'success', message: 'Test clock created', data: EXAMPLE_CLOCK },
      },
    ],
    handler: async ({ body, auth }) =>
      clockAnswer(
        'Test clock created',
        await clocks.create(auth, {
          name: body.name ?? '',
          frozenTime: new Date(body.frozen_time),
        }),
        201,
      ),
  });
