import type { Db } from '../../../platform/db/index.ts';
import { defineOperation } from '../../../platform/http/operation.ts';

export const deliveryHealth = (db: Db) =>
  defineOperation({
    id: 'delivery.health',
    service: 'delivery',
    method: 'GET',
    path: '/api/v1/delivery/health',
    summary: 'Check that the delivery service and its database answer',
    scope: 'delivery:read',
    access: 'read',
    handler: async () => {
      await db.ping();
      return { body: { status: 'ok' } };
    },
  });
