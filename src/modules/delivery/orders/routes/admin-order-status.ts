import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../../platform/http/admin.ts';
import { FreeText, Id, StringEnum, strictObject } from '../../../../platform/http/schemas.ts';
import { DELIVERY_STATUSES, FAILURE_REASONS } from '../../domain/index.ts';
import type { OrdersService } from '../service.ts';
import { detailsView } from '../views.ts';

export const orderAdminRoutes = (orders: OrdersService, publicBaseUrl: string) => [
  defineAdminRoute({
    method: 'POST',
    url: '/delivery/orders/:order_id/status',
    audit: { action: 'delivery_order.status_change' },
    summary:
      'Move an order through its states (courier updates, failures); illegal moves answer 409 INVALID_TRANSITION. ' +
      'A failed delivery attempt of an in_transit order is either another attempt (status in_transit again, while attempts are left: DELIVERY_MAX_ATTEMPTS, default 2) ' +
      'or a return (returning, then returned); both need a failure_reason (other needs a note). A returned wallet-funded order keeps its delivery fee and is charged the return fee once.',
    params: strictObject({ order_id: Id }),
    body: strictObject({
      status: StringEnum(DELIVERY_STATUSES.filter((s) => s !== 'placed')),
      note: Type.Optional(FreeText(500)),
      failure_reason: Type.Optional(
        StringEnum(
          FAILURE_REASONS,
          'Why the courier could not deliver: required for another attempt (in_transit → in_transit) and for returning; allowed with failed',
        ),
      ),
    }),
    handler: async ({ params, body }) => {
      const order = await orders.operatorMove(
        params.order_id,
        body.status,
        body.note,
        body.failure_reason,
      );
      const events = await orders.history(order.id);
      return {
        body: {
          ...detailsView(order, events, publicBaseUrl),
          app_id: order.app_id,
          environment: order.environment,
        },
      };
    },
  }),
];
