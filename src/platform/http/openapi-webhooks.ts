import type { TSchema } from '@sinclair/typebox';
import { toJsonSchema, type JsonSchema } from './openapi-schema.ts';

/** One webhook event type as the reference describes it: the schema of its `data`. */
export interface WebhookEventDoc {
  /** The service whose operations cause it; documented only when that service is served. */
  service: string;
  summary: string;
  data: TSchema;
}

export type WebhookEventDocs = Readonly<Record<string, WebhookEventDoc>>;

/** `delivery.order.status_changed` → `DeliveryOrderStatusChangedEvent`, the event's schema name. */
export const eventSchemaName = (type: string) =>
  `${type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}Event`;

const HOW_SENT =
  "Sent as a `POST` with a JSON body to the app's webhook URL (or the order's `webhook_url`), signed per Standard Webhooks: `webhook-signature` is `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of the app's `whsec_` secret (verify the raw body before parsing it). Delivery is at least once: the same event may come again, with the same `id`.";

const headerParam = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
});

/** The headers every webhook delivery carries, under components.parameters. */
export const WEBHOOK_PARAMETERS = {
  WebhookId: headerParam(
    'webhook-id',
    'The event id (`id` in the body), the same on every retry: deduplicate on it.',
  ),
  WebhookTimestamp: headerParam(
    'webhook-timestamp',
    'Unix time in seconds of this attempt; refuse one far from your clock (the SDK allows 5 minutes).',
  ),
  WebhookSignature: headerParam(
    'webhook-signature',
    'Space-separated `v1,<base64>` signatures, one per active secret (two during a secret rotation); accept if any matches.',
  ),
};

/** The body of one event type: the envelope every event shares, with this type's `data`. */
function eventSchema(type: string, event: WebhookEventDoc): JsonSchema {
  return {
    type: 'object',
    description: event.summary,
    required: ['id', 'type', 'created_at', 'environment', 'data'],
    properties: {
      id: { type: 'string', pattern: '^evt_', description: 'Equal to the webhook-id header' },
      type: { type: 'string', const: type },
      created_at: { type: 'string', format: 'date-time' },
      environment: {
        type: 'string',
        enum: ['staging', 'production'],
        description: 'The environment of the key whose action caused the event',
      },
      data: toJsonSchema(event.data),
    },
  };
}

function webhookOperation(type: string, event: WebhookEventDoc): JsonSchema {
  const param = (name: string) => ({ $ref: `#/components/parameters/${name}` });
  return {
    post: {
      summary: event.summary,
      description: HOW_SENT,
      parameters: Object.keys(WEBHOOK_PARAMETERS).map(param),
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { $ref: `#/components/schemas/${eventSchemaName(type)}` } },
        },
      },
      responses: {
        '2XX': {
          description:
            'Received. Any other answer (3xx included), or none in time (15 s by default), is retried with backoff (by default after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h), then dead-lettered.',
        },
        '410': {
          description:
            'Gone: no more events go to this URL until an operator enables it again (a per-order `webhook_url` stops alone).',
        },
      },
    },
  };
}

/** The document's `webhooks` section and the event schemas it refers to (for components.schemas). */
export function webhooksOf(
  events: WebhookEventDocs,
  services: ReadonlySet<string>,
): { webhooks: JsonSchema; schemas: JsonSchema } {
  const served = Object.entries(events).filter(([, e]) => services.has(e.service));
  return {
    webhooks: Object.fromEntries(served.map(([type, e]) => [type, webhookOperation(type, e)])),
    schemas: Object.fromEntries(
      served.map(([type, e]) => [eventSchemaName(type), eventSchema(type, e)]),
    ),
  };
}
