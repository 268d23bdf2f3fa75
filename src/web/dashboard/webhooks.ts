import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../platform/errors.ts';
import { auditMember, WebRefusal, type DashboardDeps, type Member, type WebKit } from './kit.ts';
import { accraTime } from './format.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { isId } from '../../platform/ids.ts';

/** An event type or its start (`delivery.order`): lower-case words and dots. */
const EVENT_TYPE = /^[a-z_.]{1,100}$/;
const STATUSES = ['pending', 'delivered', 'dead', 'no_destination'] as const;
const PAGE = 25;
/** Deliveries replayed by one submit of the list's checkboxes (a page's worth). */
export const REPLAY_MAX = PAGE;

type Status = (typeof STATUSES)[number];
type AppParams = { Params: { appId: string } };
type ListQuery = AppParams & { Querystring: { status?: string; type?: string; before?: string } };

type WebhookPageDeps = NonNullable<DashboardDeps['webhooks']>;

/** Reads the list's filters; a value no form offers is refused with a sentence (400), never a 500. */
function filters(query: ListQuery['Querystring']) {
  const pick = (v: unknown) => {
    if (Array.isArray(v)) throw new WebRefusal(400, 'A filter was sent more than once.');
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const status = pick(query.status);
  const type = pick(query.type);
  const before = pick(query.before);
  if (status && !(STATUSES as readonly string[]).includes(status))
    throw new WebRefusal(400, 'Unknown delivery status.');
  if (type && !EVENT_TYPE.test(type))
    throw new WebRefusal(
      400,
      'The event type is lower-case letters, dots and underscores (at most 100).',
    );
  if (before && !isId('evt', before))
    throw new WebRefusal(400, 'That page link is not valid; start from the first page.');
  return { status: status as Status | undefined, type, before };
}

/**
 * The webhook deliveries of the partner's apps: list, each event with its attempts, and replay
 * (one, or every dead one of an app) through the webhooks module's WebhookAdminService, the same
 * calls as the console's dead letters. Replays are audited with the member as actor.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerWebhookRoutes(
  app: FastifyInstance,
  web: WebKit,
  deps: WebhookPageDeps | undefined,
): void {
  if (!deps) return;
  const { webhooks, audit } = deps;
  const { accounts } = web.deps;

  /** The app if it belongs to the member's partner; any other app answers exactly like a missing one. */
  async function ownApp(m: Member, appId: string) {
    const found = isId('app', appId) ? await accounts.getApp(appId) : undefined;
    if (!found || found.partner_id !== m.membership.partner_id)
      throw new WebRefusal(404, 'There is no such app in your account.');
    return found;
  }

  /** The event if it belongs to this (own) app; anything else is the same 404. */
  async function ownEvent(m: Member, appId: string, eventId: string) {
    const found = await ownApp(m, appId);
    const missing = new WebRefusal(404, 'There is no such webhook delivery in your account.');
    if (!isId('evt', eventId)) throw missing;
    try {
      const event = await webhooks.get(eventId);
      if (event.delivery.app_id !== found.id) throw missing;
      return { app: found, ...event };
    } catch (err) {
      if (isAppError(err) && err.statusCode === 404) throw missing;
      throw err;
    }
  }

  /** Each chosen event if every one belongs to this (own) app; otherwise the same 404 as one missing event, before anything changes. */
  async function ownEvents(m: Member, appId: string, eventIds: string[]) {
    const found = await ownApp(m, appId);
    const events = [];
    for (const id of new Set(eventIds)) events.push((await ownEvent(m, found.id, id)).delivery);
    return { app: found, events };
  }

  async function listPage(
    reply: FastifyReply,
    m: Member,
    appId: string,
    query: ListQuery['Querystring'],
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const found = await ownApp(m, appId);
    const filter = filters(query);
    const { deliveries, nextBefore } = await webhooks.list({
      appId: found.id,
      status: filter.status,
      type: filter.type,
      before: filter.before,
      limit: PAGE,
    });
    const base = `/dashboard/apps/${found.id}/webhooks`;
    const keep = {
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.type ? { type: filter.type } : {}),
    };
    return web.page(
      reply,
      'webhooks',
      {
        title: `Webhooks · ${found.name}`,
        app: found,
        deliveries: deliveries.map((d) => ({ ...d, when: accraTime(d.created_at) })),
        filter,
        statuses: STATUSES,
        base,
        next: nextBefore
          ? `${base}?${new URLSearchParams({ ...keep, before: nextBefore })}`
          : undefined,
        firstPage: !filter.before,
        canReplay: m.membership.role !== 'finance',
        replayMax: REPLAY_MAX,
        ...extra,
      },
      status,
    );
  }

  /** Records a replay a member asked for (one delivery, or an app's chosen or dead ones). */
  function auditReplay(
    request: FastifyRequest,
    m: Member,
    target: { type: 'delivery' | 'app'; id: string },
    replayed: unknown,
  ): Promise<void> {
    return auditMember(audit, request, m, {
      action: 'webhook_delivery.replay',
      target,
      after: { replayed },
    });
  }

  definePage(
    app,
    web,
    {
      method: 'GET',
      path: '/dashboard/apps/:appId/webhooks',
      params: { appId: idParam('app', 'There is no such app in your account.') },
      need: 'view',
    },
    async ({ request, reply, actor: m }) => {
      return listPage(reply, m, request.params.appId, request.query);
    },
  );

  definePage(
    app,
    web,
    {
      method: 'GET',
      path: '/dashboard/apps/:appId/webhooks/:eventId',
      params: {
        appId: idParam('app', 'There is no such app in your account.'),
        eventId: idParam('evt', 'There is no such webhook delivery in your account.'),
      },
      need: 'view',
    },
    async ({ request, reply, actor: m }) => {
      const {
        app: found,
        delivery,
        attempts,
      } = await ownEvent(m, request.params.appId, request.params.eventId);
      return web.page(reply, 'webhook', {
        title: `Webhook ${delivery.type}`,
        app: found,
        delivery,
        created: accraTime(delivery.created_at),
        delivered: delivery.delivered_at ? accraTime(delivery.delivered_at) : undefined,
        attempts: attempts.map((a) => ({ ...a, when: accraTime(a.at) })),
        payload: JSON.stringify(delivery.payload, null, 2),
        canReplay: m.membership.role !== 'finance' && delivery.delivery_status !== 'pending',
      });
    },
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/apps/:appId/webhooks/:eventId/replay',
      params: {
        appId: idParam('app', 'There is no such app in your account.'),
        eventId: idParam('evt', 'There is no such webhook delivery in your account.'),
      },
      need: 'manage_apps',
    },
    async ({ request, reply, actor: m }) => {
      const { app: found, delivery } = await ownEvent(
        m,
        request.params.appId,
        request.params.eventId,
      );
      try {
        const replayed = await webhooks.replay(delivery.id);
        await auditReplay(request, m, { type: 'delivery', id: delivery.id }, replayed);
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        return listPage(reply, m, found.id, {}, { error: err.message }, err.statusCode);
      }
      return listPage(
        reply,
        m,
        found.id,
        {},
        { notice: `Delivery ${delivery.id} queued again: it is sent now, with fresh retries.` },
      );
    },
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/apps/:appId/webhooks/replay-selected',
      params: { appId: idParam('app', 'There is no such app in your account.') },
      need: 'manage_apps',
      form: { event: { max: 40, label: 'Delivery', repeated: { maxCount: REPLAY_MAX } } },
    },
    async ({ request, reply, actor: m, form: f }) => {
      if (f.event.length === 0)
        return listPage(
          reply,
          m,
          request.params.appId,
          {},
          { error: 'Choose at least one delivery to replay.' },
          400,
        );
      const { app: found, events } = await ownEvents(m, request.params.appId, f.event);
      const replayed: string[] = [];
      const pending: string[] = [];
      for (const event of events) {
        try {
          replayed.push(...(await webhooks.replay(event.id)));
        } catch (err) {
          // Still pending (the one refusal replay has): left on its schedule.
          if (!isAppError(err) || err.statusCode >= 500) throw err;
          pending.push(event.id);
        }
      }
      if (replayed.length > 0)
        await auditReplay(request, m, { type: 'app', id: found.id }, replayed);
      const queued =
        replayed.length === 0
          ? 'No delivery queued again.'
          : `${replayed.length} ${replayed.length === 1 ? 'delivery' : 'deliveries'} queued again: sent now, with fresh retries.`;
      const skipped =
        pending.length === 0
          ? ''
          : ` ${pending.length} still pending (left on ${pending.length === 1 ? 'its' : 'their'} schedule): ${pending.join(', ')}.`;
      return listPage(reply, m, found.id, {}, { notice: `${queued}${skipped}` });
    },
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/apps/:appId/webhooks/replay-dead',
      params: { appId: idParam('app', 'There is no such app in your account.') },
      need: 'manage_apps',
    },
    async ({ request, reply, actor: m }) => {
      const found = await ownApp(m, request.params.appId);
      const replayed = await webhooks.replaySince(found.id, new Date(0));
      if (replayed.length > 0)
        await auditReplay(request, m, { type: 'app', id: found.id }, replayed);
      const notice =
        replayed.length === 0
          ? 'No dead delivery to replay.'
          : `${replayed.length} dead ${replayed.length === 1 ? 'delivery' : 'deliveries'} queued again.`;
      return listPage(reply, m, found.id, {}, { notice });
    },
  );
}
