import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../../platform/http/admin.ts';
import { Id, StringEnum, strictObject } from '../../../../platform/http/schemas.ts';
import { pesewasToGhs } from '../../../../platform/money.ts';
import { REFUND_STATUSES, type RefundListRow, type RefundRow } from '../repository.ts';
import type { RefundsService } from '../service.ts';

const FINANCE = ['finance', 'admin'] as const;
const PROVIDER_CALL =
  'sends the refund through the gateway or transfer provider, which no transaction may wait on';
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A refund as operators see it (the API speaks GHS). */
const refundView = (r: RefundRow) => ({
  sale_id: r.sale_id,
  reference: r.reference,
  earlier_references: r.earlier_references,
  status: r.status,
  method: r.method,
  provider: r.provider,
  amount_ghs: pesewasToGhs(r.amount_pesewas),
  fee_ghs: r.fee_pesewas === null ? null : pesewasToGhs(r.fee_pesewas),
  destination: r.destination,
  attempts: r.attempts,
  provider_reference: r.provider_reference,
  failure_reason: r.failure_reason,
  refunded_at: iso(r.refunded_at),
  reversed_at: iso(r.reversed_at),
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

const listView = (r: RefundListRow) => ({
  ...refundView(r),
  sale_reference: r.sale_reference,
  partner_id: r.partner_id,
  environment: r.environment,
});

const SaleParams = strictObject({ sale_id: Id });

/**
 * Buyer refunds for finance (and admin), as on the console: the list by state, and the two actions
 * on a refund an operator decides (a failed one, one the provider reversed after it succeeded, a
 * mobile money refund waiting for its wallet). Each action is audited.
 */
export const refundsAdminRoutes = (refunds: RefundsService) => [
  defineAdminRoute({
    method: 'GET',
    url: '/refunds',
    roles: FINANCE,
    summary:
      'Buyer refunds, newest first, by state (failed and reversed ones wait for an operator); paged by `before`',
    querystring: strictObject({
      status: Type.Optional(StringEnum(REFUND_STATUSES)),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
      before: Type.Optional(Id),
    }),
    handler: async ({ query }) => {
      const limit = query.limit ?? 50;
      const rows = await refunds.list({ status: query.status, beforeId: query.before }, limit + 1);
      const shown = rows.slice(0, limit);
      return {
        body: {
          refunds: shown.map(listView),
          next_before: rows.length > limit ? shown.at(-1)!.sale_id : null,
        },
      };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/sales/:sale_id/refund/retry',
    roles: FINANCE,
    audit: { action: 'sale_refund.retry', outsideTransaction: PROVIDER_CALL },
    summary:
      'Send a failed or reversed refund again, under a new reference (409 INVALID_TRANSITION in any other state)',
    params: SaleParams,
    handler: async ({ params }) => ({ body: refundView(await refunds.retry(params.sale_id)) }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/sales/:sale_id/refund/wallet',
    roles: FINANCE,
    audit: { action: 'sale_refund.wallet', outsideTransaction: PROVIDER_CALL },
    summary:
      "Give the buyer's mobile money wallet for a mobile money refund waiting for it, failed or reversed; it is sent at once",
    params: SaleParams,
    body: strictObject({
      network: Type.String({ maxLength: 20 }),
      number: Type.String({ maxLength: 30 }),
      name: Type.String({ maxLength: 120 }),
    }),
    handler: async ({ params, body }) => ({
      body: refundView(await refunds.sendTo(params.sale_id, body)),
    }),
  }),
];
