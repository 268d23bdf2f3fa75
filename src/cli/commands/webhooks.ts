import type { Args } from '../args.ts';
import { morePages, type Command } from '../command.ts';
import { block, table, text, type Fields } from '../output.ts';

const deliveryFields: Fields = {
  'delivery id': 'delivery_id',
  'app id': 'app_id',
  env: 'environment',
  type: 'type',
  subject: 'subject_id',
  status: 'status',
  attempts: 'attempts',
  'last answer': (d) => d.last_status_code ?? d.last_error,
  created: 'created_at',
};

function deliveryList(command: string) {
  return (body: { deliveries: unknown[]; next_before: string | null }, a: Args) =>
    table(body.deliveries, deliveryFields, '(no deliveries)') +
    morePages('deliveries', command, body.next_before, a, 'before');
}

function delivery(body: { attempts: unknown[]; payload: unknown }): string {
  // Answer excerpts stay in --json: they are multi-line and would break the table.
  const attempts = table(
    body.attempts,
    {
      '#': 'attempt',
      at: 'at',
      status: 'status_code',
      ms: 'latency_ms',
      error: 'error',
      url: 'url',
    },
    '(no attempts yet)',
  );
  const { 'last answer': _, ...fields } = deliveryFields;
  const details = block(body, {
    ...fields,
    'next attempt': 'next_attempt_at',
    'last status': 'last_status_code',
    'last error': 'last_error',
    delivered: 'delivered_at',
  });
  return `${details}\n\nAttempts:\n${attempts}\n\nPayload:\n${JSON.stringify(body.payload, null, 2)}`;
}

const replayed = (body: { replayed: string[] }) =>
  body.replayed.length === 0
    ? 'Nothing to replay: no dead-lettered delivery matched.'
    : `Replaying ${body.replayed.length} deliveries from the start of the retry schedule: ${text(body.replayed)}`;

const page = (a: Args) => ({ app_id: a.app, limit: a.limit, before: a.before });
const PAGE_USAGE = '[--app APP_ID] [--limit N] [--before DELIVERY_ID]';
const PAGE_HELP = {
  app: "Only this app's deliveries",
  limit: 'How many to show, 1 to 200 (default 50)',
  before: 'Start before this delivery (the last one of the previous page)',
};

export const webhookGroups = {
  webhooks:
    'Webhook deliveries: look at them, replay dead letters, enable endpoints that answered 410',
};

export const webhookCommands: Command[] = [
  {
    name: 'webhooks list',
    summary: 'List webhook deliveries, newest first',
    route: 'GET /webhooks/deliveries',
    usage: `[--status pending|delivered|dead|no_destination] ${PAGE_USAGE}`,
    payload: (a) => ({ ...page(a), status: a.status }),
    show: deliveryList('webhooks list'),
    help: { ...PAGE_HELP, status: 'Only deliveries in this state' },
  },
  {
    name: 'webhooks dead',
    summary: 'List dead-lettered deliveries (those that exhausted their retries), newest first',
    route: 'GET /webhooks/deliveries',
    usage: PAGE_USAGE,
    payload: (a) => ({ ...page(a), status: 'dead' }),
    show: deliveryList('webhooks dead'),
    help: PAGE_HELP,
  },
  {
    name: 'webhooks get',
    summary: 'One delivery with its payload and every attempt',
    route: 'GET /webhooks/deliveries/:delivery_id',
    usage: 'DELIVERY_ID',
    show: delivery,
  },
  {
    name: 'webhooks replay',
    summary: 'Send one delivery again from the start of the retry schedule',
    route: 'POST /webhooks/deliveries/:delivery_id/replay',
    usage: 'DELIVERY_ID',
    show: replayed,
  },
  {
    name: 'webhooks replay-since',
    summary: 'Send again every dead-lettered delivery of an app created since a time',
    route: 'POST /apps/:app_id/webhooks/replay',
    usage: 'APP_ID --since TIME',
    payload: (a) => ({ since: a.since }),
    show: replayed,
    help: { since: 'ISO 8601 date-time, e.g. 2025-06-01T00:00:00Z' },
  },
  {
    name: 'webhooks enable',
    summary: 'Enable an endpoint again after it answered 410',
    route: 'POST /apps/:app_id/webhooks/enable',
    usage: 'APP_ID [--webhook-url URL]',
    payload: (a) => ({ url: a['webhook-url'] }),
    show: (b) =>
      b.enabled
        ? `Enabled ${b.url}: events are sent to it again.`
        : `${b.url} was not disabled: nothing to do.`,
    help: { 'webhook-url': "A per-order webhook URL to enable (default: the app's webhook URL)" },
  },
];
