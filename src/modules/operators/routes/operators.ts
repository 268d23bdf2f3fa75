import { Type } from '@sinclair/typebox';
import { OPERATOR_ROLES, type AdminActor } from '../../../platform/auth/actor.ts';
import { PASSWORD_MAX_LENGTH } from '../../../platform/auth/password.ts';
import { defineAdminRoute, requireRoles } from '../../../platform/http/admin.ts';
import { Id, NonEmptyString, StringEnum, strictObject } from '../../../platform/http/schemas.ts';
import type { OperatorRow, OperatorTokenRow } from '../repository.ts';
import type { OperatorsService } from '../service.ts';
import type { OperatorSignIn } from '../sign-in.ts';

export function operatorView(o: OperatorRow) {
  return {
    operator_id: o.id,
    email: o.email,
    name: o.name,
    roles: o.roles,
    active: o.active,
    totp_confirmed: o.totp_confirmed,
    created_at: o.created_at.toISOString(),
    updated_at: o.updated_at.toISOString(),
  };
}

export function operatorTokenView(t: OperatorTokenRow) {
  return {
    token_id: t.id,
    operator_id: t.operator_id,
    name: t.name,
    token_hint: t.token_hint,
    created_at: t.created_at.toISOString(),
    expires_at: t.expires_at?.toISOString() ?? null,
    revoked_at: t.revoked_at?.toISOString() ?? null,
  };
}

const Roles = Type.Array(StringEnum(OPERATOR_ROLES), { minItems: 1, maxItems: 3 });
const OperatorParams = strictObject({ operator_id: Id });

/** Operator management is admin-only; an operator may manage their own tokens and authenticator (`self`). */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export const operatorRoutes = (operators: OperatorsService, signIn: OperatorSignIn) => [
  defineAdminRoute({
    method: 'POST',
    url: '/operators',
    summary: 'Create an operator account (with the ADMIN_TOKEN, this is how the first one is made)',
    roles: ['admin'],
    body: strictObject({
      email: NonEmptyString(254),
      name: NonEmptyString(),
      password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
      roles: Roles,
    }),
    audit: { action: 'operator.create' },
    handler: async ({ body }) => ({
      statusCode: 201,
      body: operatorView(await operators.create(body)),
    }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/operators',
    summary: 'List operator accounts',
    roles: ['admin'],
    handler: async () => ({ body: { operators: (await operators.list()).map(operatorView) } }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/operators/:operator_id',
    summary: 'Get an operator account',
    roles: ['admin'],
    self: 'operator_id',
    params: OperatorParams,
    handler: async ({ params }) => ({
      body: operatorView(await operators.get(params.operator_id)),
    }),
  }),
  defineAdminRoute({
    method: 'PATCH',
    url: '/operators/:operator_id',
    summary:
      'Rename an operator, change their roles, deactivate or reactivate them (never the last active admin)',
    roles: ['admin'],
    params: OperatorParams,
    body: strictObject({
      name: Type.Optional(NonEmptyString()),
      roles: Type.Optional(Roles),
      active: Type.Optional(Type.Boolean()),
    }),
    audit: {
      action: 'operator.update',
      before: async ({ params }) => operatorView(await operators.get(params.operator_id)),
    },
    handler: async ({ params, body }) => ({
      body: operatorView(await operators.update(params.operator_id, body)),
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/operators/:operator_id/tokens',
    summary: 'Create an operator API token (shown once); an operator may create their own',
    roles: ['admin'],
    self: 'operator_id',
    params: OperatorParams,
    body: strictObject({
      name: NonEmptyString(100),
      expires_at: Type.Optional(Type.String({ format: 'date-time' })),
    }),
    audit: { action: 'operator_token.create' },
    handler: async ({ params, body }) => {
      const { token, row } = await operators.createToken(params.operator_id, {
        name: body.name,
        expiresAt: body.expires_at ? new Date(body.expires_at) : undefined,
      });
      return { statusCode: 201, body: { ...operatorTokenView(row), token } };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/operators/:operator_id/tokens',
    summary: "List an operator's tokens (hints only)",
    roles: ['admin'],
    self: 'operator_id',
    params: OperatorParams,
    handler: async ({ params }) => ({
      body: { tokens: (await operators.listTokens(params.operator_id)).map(operatorTokenView) },
    }),
  }),
  defineAdminRoute({
    method: 'DELETE',
    url: '/operator-tokens/:token_id',
    summary: 'Revoke an operator token at once; an operator may revoke their own',
    roles: OPERATOR_ROLES,
    params: strictObject({ token_id: Id }),
    audit: { action: 'operator_token.revoke' },
    handler: async ({ params, actor }) => {
      await requireOwnOrAdmin(actor, (await operators.getToken(params.token_id)).operator_id);
      await operators.revokeToken(params.token_id);
      return { statusCode: 204, body: undefined };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/operators/:operator_id/totp',
    summary:
      'Start TOTP enrolment: the secret and otpauth URI, shown once (the operator themselves, or the ADMIN_TOKEN)',
    roles: [],
    self: 'operator_id',
    params: OperatorParams,
    audit: { action: 'operator.totp_enrol' },
    handler: async ({ params }) => {
      const { secret, otpauthUri } = await signIn.enrolTotp(params.operator_id);
      return {
        statusCode: 201,
        body: { operator_id: params.operator_id, totp_secret: secret, otpauth_uri: otpauthUri },
      };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/operators/:operator_id/totp/confirm',
    summary: 'Confirm TOTP enrolment with the first code the authenticator shows',
    roles: [],
    self: 'operator_id',
    params: OperatorParams,
    body: strictObject({ code: Type.String({ minLength: 1, maxLength: 10 }) }),
    audit: { action: 'operator.totp_confirm' },
    handler: async ({ params, body }) => ({
      body: operatorView(await signIn.confirmTotp(params.operator_id, body.code)),
    }),
  }),
];

/** Tokens of others are for admins only. */
async function requireOwnOrAdmin(actor: AdminActor, operatorId: string): Promise<void> {
  if (actor.kind === 'operator' && actor.id === operatorId) return;
  requireRoles(actor, ['admin'], "another operator's tokens");
}
