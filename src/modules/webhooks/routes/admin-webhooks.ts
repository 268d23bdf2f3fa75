import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../platform/http/admin.ts';
import { HttpUrl, Id, StringEnum, strictObject } from '../../../platform/http/schemas.ts';
import type { WebhookAdminService } from '../admin-service.ts';
import type { EventRow } from '../repository.ts';

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

export const webhookAdminRoutes = (webhooks: WebhookAdminService) => [
  defineAdminRoute({
    method: 'GET',
    url: '/webhooks/deliveries',
    summary:
      'List webhook deliveries, newest first, by app and status (pending, delivered, dead, no_destination)',
    querystring: strictObject({
      app_id: Type.Optional(Id),
      status: Type.Optional(
        StringEnum(['pending', 'delivered', 'dead', 'no_destination'] as const),
      ),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
      before: Type.Optional(Id),
    }),
    handler: async ({ query }) => {
      const { deliveries, nextBefore } = await webhooks.list({
        appId: query.app_id,
        status: query.status,
        limit: query.limit ?? 50,
        before: query.before,
      });
      return { body: { deliveries: deliveries.map(view), next_before: nextBefore } };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/webhooks/deliveries/:delivery_id',
    summary:
      'One delivery with its payload and every attempt (status code, latency, answer excerpt)',
    params: strictObject({ delivery_id: Id }),
    handler: async ({ params }) => {
      const { delivery, attempts } = await webhooks.get(params.delivery_id);
      return {
        body: {
          ...view(delivery),
          payload: delivery.payload,
          attempts: attempts.map((a) => ({ ...a, at: a.at.toISOString() })),
        },
      };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/webhooks/deliveries/:delivery_id/replay',
    audit: { action: 'webhook_delivery.replay' },
    summary: 'Send a delivery again from the start of the retry schedule',
    params: strictObject({ delivery_id: Id }),
    handler: async ({ params }) => ({
      statusCode: 202,
      body: { replayed: await webhooks.replay(params.delivery_id) },
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/apps/:app_id/webhooks/replay',
    audit: { action: 'app.webhooks_replay' },
    summary: 'Send again every dead-lettered delivery of an app created since a time',
    params: strictObject({ app_id: Id }),
    body: strictObject({ since: Type.String({ format: 'date-time' }) }),
    handler: async ({ params, body }) => ({
      statusCode: 202,
      body: { replayed: await webhooks.replaySince(params.app_id, new Date(body.since)) },
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/apps/:app_id/webhooks/enable',
    audit: { action: 'app.webhooks_enable' },
    summary:
      "Enable an endpoint again after it answered 410 (the app's URL unless `url` names a per-order one)",
    params: strictObject({ app_id: Id }),
    body: strictObject({ url: Type.Optional(HttpUrl) }),
    handler: async ({ params, body }) => ({ body: await webhooks.enable(params.app_id, body.url) }),
  }),
];
