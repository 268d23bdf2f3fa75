import type { Db } from '../../../platform/db/index.ts';
import { defineOperation } from '../../../platform/http/operation.ts';
import { HEALTH_EXAMPLES, HealthOk } from '../../../platform/http/openapi-shapes.ts';

export const deliveryHealth = (db: Db) =>
  defineOperation({
    id: 'delivery.health',
    service: 'delivery',
    method: 'GET',
    path: '/api/v1/delivery/health',
    summary: 'Check that the delivery service and its database answer',
    scope: 'delivery:read',
    access: 'read',
    response: HealthOk,
    examples: HEALTH_EXAMPLES,
    handler: async () => {
      await db.ping();
      return { body: { status: 'ok' } };
    },
  });
