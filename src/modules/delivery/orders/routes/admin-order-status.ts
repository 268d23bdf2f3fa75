import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../../platform/http/admin.ts';
import { FreeText, Id, StringEnum, strictObject } from '../../../../platform/http/schemas.ts';
import { DELIVERY_STATUSES } from '../../domain/index.ts';
import type { OrdersService } from '../service.ts';
import { detailsView } from '../views.ts';

export const orderAdminRoutes = (orders: OrdersService, publicBaseUrl: string) => [
  defineAdminRoute({
    method: 'POST',
    url: '/delivery/orders/:order_id/status',
    audit: { action: 'delivery_order.status_change' },
    summary: 'Move an order through its states (courier updates, failures); illegal moves answer 409 INVALID_TRANSITION',
    params: strictObject({ order_id: Id }),
    body: strictObject({
      status: StringEnum(DELIVERY_STATUSES.filter((s) => s !== 'placed')),
      note: Type.Optional(FreeText(500)),
    }),
    handler: async ({ params, body }) => {
      const order = await orders.operatorMove(params.order_id, body.status, body.note);
      const events = await orders.history(order.id);
      return { body: { ...detailsView(order, events, publicBaseUrl), app_id: order.app_id, environment: order.environment } };
    },
  }),
];
