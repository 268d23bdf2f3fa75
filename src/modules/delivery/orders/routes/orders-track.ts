import { defineOperation } from '../../../../platform/http/operation.ts';
import type { OrdersService } from '../service.ts';
import { trackView } from '../views.ts';
import { OrderIdBody, success } from './common.ts';

export const ordersTrack = (orders: OrdersService) =>
  defineOperation({
    id: 'delivery.orders.track',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/orders.track',
    summary: "Get an order's tracking timeline (phone masked to the last four digits)",
    scope: 'delivery:read',
    access: 'read',
    body: OrderIdBody,
    errorCodes: ['ORDER_NOT_FOUND'],
    handler: async ({ body, auth }) => {
      const { order, events } = await orders.get(auth, body.order_id);
      return success('Tracking retrieved', trackView(order, events));
    },
  });
