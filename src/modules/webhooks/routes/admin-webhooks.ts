import { Type } from '@sinclair/typebox';
import type { Db } from '../../../platform/db/index.ts';
import { errors } from '../../../platform/errors.ts';
import { defineAdminRoute } from '../../../platform/http/admin.ts';
import { HttpUrl, Id, NonEmptyString, StringEnum, strictObject } from '../../../platform/http/schemas.ts';
import type { AccountsService } from '../../accounts/index.ts';
import type { Destinations } from '../../../platform/outbound/destinations.ts';
import { webhooksRepository as repo, type EventRow } from '../repository.ts';

const view = (e: EventRow) => ({
  delivery_id: e.id,
  app_id: e.app_id,
  environment: e.environment,
  type: e.type,
  subject_id: e.subject_id,
  status: e.delivery_status,
  attempts: e.attempts,
  next_attempt_at: e.delivery_status === 'pending' ? e.next_attempt_at.toISOString() : null,
  last_status_code: e.last_status_code,
  last_error: e.last_error,
  delivered_at: e.delivered_at?.toISOString() ?? null,
  created_at: e.created_at.toISOString(),
});

export const webhookAdminRoutes = (db: Db, accounts: AccountsService, destinations: Destinations, clock: () => number) => [
  defineAdminRoute({
    method: 'GET',
    url: '/webhooks/deliveries',
    summary: 'List webhook deliveries, newest first, by app and status (pending, delivered, dead, no_destination)',
    querystring: strictObject({
      app_id: Type.Optional(Id),
      status: Type.Optional(StringEnum(['pending', 'delivered', 'dead', 'no_destination'] as const)),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
      before: Type.Optional(Id),
    }),
    handler: async ({ query }) => {
      const rows = await repo.list(db, { appId: query.app_id, status: query.status, limit: query.limit ?? 50, before: query.before });
      return { body: { deliveries: rows.map(view), next_before: rows.length === (query.limit ?? 50) ? rows.at(-1)!.id : null } };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/webhooks/deliveries/:delivery_id',
    summary: 'One delivery with its payload and every attempt (status code, latency, answer excerpt)',
    params: strictObject({ delivery_id: Id }),
    handler: async ({ params }) => {
      const row = await repo.get(db, params.delivery_id);
      if (!row) throw errors.notFound(`There is no webhook delivery ${params.delivery_id}.`);
      const attempts = await repo.attempts(db, row.id);
      return { body: { ...view(row), payload: row.payload, attempts: attempts.map((a) => ({ ...a, at: a.at.toISOString() })) } };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/webhooks/deliveries/:delivery_id/replay',
    summary: 'Send a delivery again from the start of the retry schedule',
    params: strictObject({ delivery_id: Id }),
    handler: async ({ params }) => {
      const replayed = await repo.replay(db, { id: params.delivery_id }, new Date(clock()));
      if (replayed.length === 0) {
        if (!(await repo.get(db, params.delivery_id))) throw errors.notFound(`There is no webhook delivery ${params.delivery_id}.`);
        throw errors.validation('This delivery is still pending; it will be sent on its schedule.');
      }
      return { statusCode: 202, body: { replayed } };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/apps/:app_id/webhooks/replay',
    summary: "Send again every dead-lettered delivery of an app created since a time",
    params: strictObject({ app_id: Id }),
    body: strictObject({ since: Type.String({ format: 'date-time' }) }),
    handler: async ({ params, body }) => {
      if (!(await accounts.getApp(params.app_id))) throw errors.appNotFound(`There is no app ${params.app_id}.`);
      const replayed = await repo.replay(db, { appId: params.app_id, since: new Date(body.since) }, new Date(clock()));
      return { statusCode: 202, body: { replayed } };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/apps/:app_id/webhooks/enable',
    summary: "Enable an endpoint again after it answered 410 (the app's URL unless `url` names a per-order one)",
    params: strictObject({ app_id: Id }),
    body: strictObject({ url: Type.Optional(HttpUrl) }),
    handler: async ({ params, body }) => {
      const app = await accounts.getApp(params.app_id);
      if (!app) throw errors.appNotFound(`There is no app ${params.app_id}.`);
      const url = body.url ?? app.webhook_url;
      if (!url) throw errors.validation('The app has no webhook URL; name the url to enable.', [{ field: 'url', issue: 'is required' }]);
      return { body: { url, enabled: await repo.enable(db, params.app_id, url) } };
    },
  }),
  defineAdminRoute({
    method: 'PATCH',
    url: '/apps/:app_id',
    summary: "Change an app's name, webhook URL or return URL (null clears a URL)",
    params: strictObject({ app_id: Id }),
    body: strictObject({
      name: Type.Optional(NonEmptyString()),
      webhook_url: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
      return_url: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    }),
    handler: async ({ params, body }) => {
      await destinations.requireAppUrl(body.webhook_url);
      return { body: await accounts.updateApp(params.app_id, body) };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/apps/:app_id/webhook-secret/rotate',
    summary: 'Issue a new webhook secret (shown once); the previous one keeps signing for the overlap',
    params: strictObject({ app_id: Id }),
    body: strictObject({ overlap_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: 168, default: 24 })) }),
    handler: async ({ params, body }) => ({ statusCode: 201, body: await accounts.rotateWebhookSecret(params.app_id, body.overlap_hours ?? 24, new Date(clock())) }),
  }),
];
