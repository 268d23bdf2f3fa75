import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../platform/http/admin.ts';
import { Id, strictObject } from '../../../platform/http/schemas.ts';
import type { HandoverRow } from '../repository.ts';
import type { CashService } from '../service.ts';

const FINANCE = ['finance', 'admin'] as const;

export const handoverView = (h: HandoverRow) => ({
  id: h.id,
  courier_id: h.courier_id,
  amount_pesewas: h.amount_pesewas,
  recorded_by: h.recorded_by,
  created_at: h.created_at.toISOString(),
});

export const cashAdminRoutes = (cash: CashService) => [
  defineAdminRoute({
    method: 'GET',
    url: '/cash/couriers',
    roles: FINANCE,
    summary: "Couriers' cash collected on delivery and not yet handed in, the largest first",
    handler: async () => ({
      body: {
        data: (await cash.balances()).map((b) => ({
          courier_id: b.courier_id,
          balance_pesewas: b.balance_pesewas,
          updated_at: b.updated_at.toISOString(),
        })),
      },
    }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/cash/couriers/:courier_id',
    roles: FINANCE,
    summary: "One courier's cash to hand in and their handovers, newest first",
    params: strictObject({ courier_id: Id }),
    handler: async ({ params }) => ({
      body: {
        courier_id: params.courier_id,
        balance_pesewas: await cash.balance(params.courier_id),
        handovers: (await cash.handovers(params.courier_id)).map(handoverView),
      },
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/cash/couriers/:courier_id/handovers',
    roles: FINANCE,
    audit: { action: 'courier_cash.handover' },
    summary:
      'Record cash a courier handed in (posted from their cash account to the platform cash); more than they hold is refused',
    params: strictObject({ courier_id: Id }),
    body: strictObject({ amount_pesewas: Type.Integer({ minimum: 1, maximum: 10_000_000_000 }) }),
    handler: async ({ params, body, actor }) => {
      const done = await cash.handover(params.courier_id, body.amount_pesewas, actor.id);
      return {
        statusCode: 201,
        body: { handover: handoverView(done.handover), balance_pesewas: done.balance_pesewas },
      };
    },
  }),
];
