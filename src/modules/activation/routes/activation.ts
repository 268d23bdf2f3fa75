import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../platform/http/admin.ts';
import { FreeText, Id, StringEnum, strictObject } from '../../../platform/http/schemas.ts';
import { ACTIVATION_STATES } from '../domain/states.ts';
import type { ActivationRow } from '../repository.ts';
import type { ActivationService } from '../service.ts';

export function activationView(r: ActivationRow) {
  return {
    request_id: r.id,
    partner_id: r.partner_id,
    state: r.state,
    business_name: r.business_name,
    registration_number: r.registration_number,
    director_ghana_card: r.director_ghana_card,
    settlement: r.settlement,
    digital_address: r.digital_address,
    contact_phone: r.contact_phone,
    submitted_at: r.submitted_at?.toISOString() ?? null,
    decided_at: r.decided_at?.toISOString() ?? null,
    decided_by: r.decided_by,
    rejection_reason: r.rejection_reason,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

const RequestParams = strictObject({ request_id: Id });

/** The activation queue: every role reads it; support and admin decide. Decisions audit themselves, in their transaction. */
export const activationRoutes = (activation: ActivationService) => [
  defineAdminRoute({
    method: 'GET',
    url: '/activation-requests',
    summary: 'The production activation queue, oldest first (filter by state; page with `after`)',
    querystring: strictObject({
      state: Type.Optional(StringEnum(ACTIVATION_STATES)),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
      after: Type.Optional(Id),
    }),
    handler: async ({ query }) => {
      const limit = query.limit ?? 50;
      const rows = await activation.list({ state: query.state, limit, after: query.after });
      return {
        body: {
          requests: rows.map(activationView),
          next_after: rows.length === limit ? rows.at(-1)!.id : null,
        },
      };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/activation-requests/:request_id',
    summary: 'One production activation request',
    params: RequestParams,
    handler: async ({ params }) => ({
      body: activationView(await activation.get(params.request_id)),
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/activation-requests/:request_id/approve',
    summary:
      "Approve a submitted request: the partner's production access is turned on in the same transaction",
    params: RequestParams,
    audit: { recordedByService: true },
    handler: async ({ params, actor, origin }) => ({
      body: activationView(await activation.approve(params.request_id, actor, origin)),
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/activation-requests/:request_id/reject',
    summary:
      'Reject a submitted request with a reason the partner sees; they may edit it and submit again',
    params: RequestParams,
    body: strictObject({ reason: FreeText(1000) }),
    audit: { recordedByService: true },
    handler: async ({ params, body, actor, origin }) => ({
      body: activationView(await activation.reject(params.request_id, body.reason, actor, origin)),
    }),
  }),
];
