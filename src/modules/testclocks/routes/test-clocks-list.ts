import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../platform/http/operation.ts';
import { DeliverySuccess } from '../../../platform/http/openapi-shapes.ts';
import { strictObject } from '../../../platform/http/schemas.ts';
import type { TestClocksService } from '../service.ts';
import { clockView } from '../views.ts';
import { EXAMPLE_CLOCK, TestClock } from './common.ts';

const ListBody = strictObject({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, description: 'At most this many (default 100)' }),
  ),
});

export const testClocksList = (clocks: TestClocksService) =>
  defineOperation({
    id: 'delivery.test_clocks.list',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/test_clocks.list',
    summary: "The app's test clocks, newest first (staging keys only)",
    scope: 'delivery:read',
    stagingOnly: true,
    access: 'read',
    body: ListBody,
    response: DeliverySuccess(
      Type.Object({ test_clocks: Type.Array(TestClock), total: Type.Integer() }),
    ),
    examples: [
      {
        name: 'list',
        summary: 'One clock',
        request: {},
        response: {
          status: 'success',
          message: 'Test clocks retrieved',
          data: { test_clocks: [EXAMPLE_CLOCK], total: 1 },
        },
      },
    ],
    handler: async ({ body, auth }) => {
      const rows = await clocks.list(auth, body.limit ?? 100);
      return {
        body: {
          status: 'success',
          message: 'Test clocks retrieved',
          data: { test_clocks: rows.map(clockView), total: rows.length },
        },
      };
    },
  });
