import type { Db } from '../../../platform/db/index.ts';
import { defineOperation } from '../../../platform/http/operation.ts';
import { HEALTH_EXAMPLES, HealthOk } from '../../../platform/http/openapi-shapes.ts';

export const catalogHealth = (db: Db) =>
  defineOperation({
    id: 'safe-catalog.health',
    service: 'safe-catalog',
    method: 'GET',
    path: '/api/v1/safe-catalog/health',
    summary: 'Check that the safe-catalog service and its database answer',
    scope: 'safe:read',
    access: 'read',
    response: HealthOk,
    examples: HEALTH_EXAMPLES,
    handler: async () => {
      await db.ping();
      return { body: { status: 'ok' } };
    },
  });
