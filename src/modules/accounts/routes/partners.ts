import { Type } from '@sinclair/typebox';
import { defineAdminRoute, requireRoles } from '../../../platform/http/admin.ts';
import { Id, NonEmptyString, StringEnum, strictObject } from '../../../platform/http/schemas.ts';
import type { AccountsService } from '../service.ts';
import { partnerView } from '../views.ts';

const PartnerParams = strictObject({ partner_id: Id });

const RateLimits = strictObject({
  reads_per_minute: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  writes_per_minute: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
});

export const partnerRoutes = (accounts: AccountsService) => [
  defineAdminRoute({
    method: 'POST',
    url: '/partners',
    summary: 'Create a partner account',
    body: strictObject({ name: NonEmptyString() }),
    audit: { action: 'partner.create' },
    handler: async ({ body }) => ({
      statusCode: 201,
      body: partnerView(await accounts.createPartner(body.name)),
    }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/partners',
    summary: 'List partner accounts (oldest first, paged by `after`)',
    querystring: strictObject({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
      after: Type.Optional(Id),
    }),
    handler: async ({ query }) => {
      const partners = await accounts.listPartners(query.limit ?? 50, query.after);
      return {
        body: {
          partners: partners.map(partnerView),
          next_after: partners.length === (query.limit ?? 50) ? partners.at(-1)!.id : null,
        },
      };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/partners/:partner_id',
    summary: 'Get a partner account',
    params: PartnerParams,
    handler: async ({ params }) => ({
      body: partnerView(await accounts.getPartner(params.partner_id)),
    }),
  }),
  defineAdminRoute({
    method: 'PATCH',
    url: '/partners/:partner_id',
    summary:
      'Suspend or reactivate a partner, switch production access, set the credit limit or own rate limits',
    // The credit limit is money (finance, admin); every other field is support's (support, admin).
    roles: ['support', 'finance', 'admin'],
    params: PartnerParams,
    body: strictObject({
      status: Type.Optional(StringEnum(['active', 'suspended'])),
      production_active: Type.Optional(Type.Boolean()),
      credit_limit_ghs: Type.Optional(Type.Number({ minimum: 0 })),
      rate_limits: Type.Optional(Type.Union([RateLimits, Type.Null()])),
    }),
    audit: {
      action: 'partner.update',
      before: async ({ params }) => partnerView(await accounts.getPartner(params.partner_id)),
    },
    handler: async ({ params, body, actor }) => {
      if (body.credit_limit_ghs !== undefined)
        requireRoles(actor, ['finance', 'admin'], 'changing a credit limit');
      const { credit_limit_ghs: _, ...rest } = body;
      if (Object.values(rest).some((v) => v !== undefined))
        requireRoles(
          actor,
          ['support', 'admin'],
          'changing status, production access or rate limits',
        );
      return { body: partnerView(await accounts.updatePartner(params.partner_id, body)) };
    },
  }),
];
