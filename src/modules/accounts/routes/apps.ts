import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../platform/http/admin.ts';
import {
  HttpUrl,
  Id,
  NonEmptyString,
  StringEnum,
  strictObject,
} from '../../../platform/http/schemas.ts';
import type { AccountsService } from '../service.ts';
import { appView, keyView } from '../views.ts';

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export const appRoutes = (accounts: AccountsService, clock: () => number) => [
  defineAdminRoute({
    method: 'POST',
    url: '/partners/:partner_id/apps',
    audit: {
      action: 'app.create',
      outsideTransaction: 'resolves the webhook host (DNS) to refuse private addresses',
    },
    summary: 'Create an app; its webhook secret is shown once',
    params: strictObject({ partner_id: Id }),
    body: strictObject({
      name: NonEmptyString(),
      webhook_url: Type.Optional(HttpUrl),
      return_url: Type.Optional(HttpUrl),
    }),
    handler: async ({ params, body }) => {
      const { app, webhookSecret } = await accounts.createApp(params.partner_id, body);
      return { statusCode: 201, body: { ...appView(app), webhook_secret: webhookSecret } };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/partners/:partner_id/apps',
    summary: "List a partner's apps",
    params: strictObject({ partner_id: Id }),
    handler: async ({ params }) => ({
      body: { apps: (await accounts.listApps(params.partner_id)).map(appView) },
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/apps/:app_id/keys',
    audit: { action: 'key.create' },
    summary: 'Create an API key; the key and its signing secret are shown once',
    params: strictObject({ app_id: Id }),
    body: strictObject({
      environment: StringEnum(['staging', 'production']),
      // Checked by the service, whose message lists the known scopes.
      scopes: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 8 }),
    }),
    handler: async ({ params, body }) => {
      const { key, apiKey, signingSecret } = await accounts.createKey(params.app_id, body);
      return {
        statusCode: 201,
        body: { ...keyView(key), api_key: apiKey, signing_secret: signingSecret },
      };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/apps/:app_id/keys',
    summary: "List an app's keys (hints only; keys and secrets are never shown again)",
    params: strictObject({ app_id: Id }),
    handler: async ({ params }) => ({
      body: { keys: (await accounts.listKeys(params.app_id)).map(keyView) },
    }),
  }),
  defineAdminRoute({
    method: 'DELETE',
    url: '/keys/:key_id',
    audit: { action: 'key.revoke' },
    summary: 'Revoke a key; every instance refuses it within seconds',
    params: strictObject({ key_id: Id }),
    handler: async ({ params }) => {
      await accounts.revokeKey(params.key_id);
      return { statusCode: 204, body: undefined };
    },
  }),
  defineAdminRoute({
    method: 'PATCH',
    url: '/apps/:app_id',
    audit: {
      action: 'app.update',
      outsideTransaction: 'resolves the webhook host (DNS) to refuse private addresses',
    },
    summary: "Change an app's name, webhook URL or return URL (null clears a URL)",
    params: strictObject({ app_id: Id }),
    body: strictObject({
      name: Type.Optional(NonEmptyString()),
      webhook_url: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
      return_url: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    }),
    handler: async ({ params, body }) => ({
      body: appView(await accounts.updateApp(params.app_id, body)),
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/apps/:app_id/webhook-secret/rotate',
    audit: { action: 'app.webhook_secret_rotate' },
    summary:
      'Issue a new webhook secret (shown once); the previous one keeps signing for the overlap',
    params: strictObject({ app_id: Id }),
    body: strictObject({
      overlap_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: 168, default: 24 })),
    }),
    handler: async ({ params, body }) => ({
      statusCode: 201,
      body: await accounts.rotateWebhookSecret(
        params.app_id,
        body.overlap_hours ?? 24,
        new Date(clock()),
      ),
    }),
  }),
];
