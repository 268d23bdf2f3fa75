import type { FastifyInstance, FastifyReply } from 'fastify';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { ALL_ROLES, CHANGE_ROLES, type ConsoleKit, type OperatorCurrent } from './kit.ts';

const EVENT_ID = /^evt_[0-9A-Z]{26}$/;
const PAGE_SIZE = 50;

/** Dead-lettered webhook deliveries across partners, newest first; support and admin replay them (as on the operator API). */
export function registerConsoleWebhookRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { webhooks, audit } = kit.deps;

  async function deadLetters(reply: FastifyReply, current: OperatorCurrent, before: string | undefined, extra: Record<string, unknown> = {}, status = 200) {
    const page = await webhooks.list({ status: 'dead', limit: PAGE_SIZE, ...(before ? { before } : {}) });
    const canReplay = current.operator.roles.some((r) => CHANGE_ROLES.includes(r));
    return kit.page(reply, 'webhooks', { title: 'Webhook dead letters', deliveries: page.deliveries, next: page.nextBefore, canReplay, ...extra }, status);
  }

  app.get<{ Querystring: { before?: string } }>('/console/webhooks', async (request, reply) => {
    const current = await kit.operator(request, reply, ALL_ROLES);
    if (!current) return reply;
    const before = typeof request.query.before === 'string' && EVENT_ID.test(request.query.before) ? request.query.before : undefined;
    return deadLetters(reply, current, before);
  });

  app.post<{ Params: { id: string } }>('/console/webhooks/:id/replay', async (request, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    kit.form(request, {}, current);
    const id = request.params.id;
    if (!EVENT_ID.test(id)) throw new WebRefusal(404, 'There is no such webhook delivery.');
    try {
      const replayed = await webhooks.replay(id);
      await audit.record({ actor: kit.actor(current), action: 'webhook_delivery.replay', target: { type: 'delivery', id }, after: { replayed }, origin: kit.origin(request) });
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      if (err.statusCode === 404) throw new WebRefusal(404, 'There is no such webhook delivery.');
      return deadLetters(reply, current, undefined, { error: err.message }, err.statusCode);
    }
    return deadLetters(reply, current, undefined, { notice: `Delivery ${id} queued again: it is sent now, with fresh retries.` });
  });
}
