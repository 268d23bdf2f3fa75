import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../../platform/http/admin.ts';
import { Id, StringEnum, strictObject } from '../../../../platform/http/schemas.ts';
import type { SalesService } from '../service.ts';
import { operatorSaleView } from '../views.ts';
import { PAYMENT_STATUSES, STATES } from './sale-schema.ts';

export const salesAdminRoutes = (sales: SalesService) => [
  defineAdminRoute({
    method: 'GET',
    url: '/sales',
    summary:
      'List sales by state and payment status (e.g. state=on_hold, payment_status=refund_due), oldest first, paged by `after`',
    querystring: strictObject({
      state: Type.Optional(StringEnum(STATES)),
      payment_status: Type.Optional(StringEnum(PAYMENT_STATUSES)),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
      after: Type.Optional(Id),
    }),
    handler: async ({ query }) => {
      const { sales: rows, nextAfter } = await sales.operatorList(
        { state: query.state, paymentStatus: query.payment_status },
        query.limit ?? 50,
        query.after,
      );
      return { body: { sales: rows.map(operatorSaleView), next_after: nextAfter } };
    },
  }),
];
