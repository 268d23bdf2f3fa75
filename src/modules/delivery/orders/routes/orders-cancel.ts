import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { strictObject } from '../../../../platform/http/schemas.ts';
import type { OrdersService } from '../service.ts';
import { cancelledView } from '../views.ts';
import { success } from './common.ts';

export const ordersCancel = (orders: OrdersService) =>
  defineOperation({
    id: 'delivery.orders.cancel',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/orders.cancel',
    summary: 'Cancel an order that is not delivered or cancelled yet',
    scope: 'delivery:write',
    access: 'write',
    body: strictObject({
      order_id: Type.String({ minLength: 1, maxLength: 64 }),
      reason: Type.Optional(Type.String({ maxLength: 500 })),
    }),
    errorCodes: ['ORDER_NOT_FOUND', 'INVALID_ORDER_STATUS'],
    handler: async ({ body, auth }) => success('Order cancelled', cancelledView(await orders.cancel(auth, body.order_id, body.reason))),
  });
