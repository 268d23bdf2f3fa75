import { defineOperation } from '../../../../platform/http/operation.ts';
import type { OrdersService } from '../service.ts';
import { detailsView } from '../views.ts';
import { OrderIdBody, success } from './common.ts';

export const ordersGet = (orders: OrdersService, publicBaseUrl: string) =>
  defineOperation({
    id: 'delivery.orders.get',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/orders.get',
    summary: "Get an order's details and status",
    scope: 'delivery:read',
    access: 'read',
    body: OrderIdBody,
    errorCodes: ['ORDER_NOT_FOUND'],
    handler: async ({ body, auth }) => {
      const { order, events } = await orders.get(auth, body.order_id);
      return success('Order retrieved', detailsView(order, events, publicBaseUrl));
    },
  });
