import type { FastifyInstance, FastifyReply } from 'fastify';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { holds, ALL_ROLES, CHANGE_ROLES, type ConsoleKit, type OperatorCurrent } from './kit.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { isId } from '../../platform/ids.ts';

const PAGE_SIZE = 50;

/** Dead-lettered webhook deliveries across partners, newest first; support and admin replay them (as on the operator API). */
export function registerConsoleWebhookRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { webhooks } = kit.deps;

  async function deadLetters(
    reply: FastifyReply,
    current: OperatorCurrent,
    before: string | undefined,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const page = await webhooks.list({
      status: 'dead',
      limit: PAGE_SIZE,
      ...(before ? { before } : {}),
    });
    const canReplay = holds(current, CHANGE_ROLES);
    return kit.page(
      reply,
      'webhooks',
      {
        title: 'Webhook dead letters',
        deliveries: page.deliveries,
        next: page.nextBefore,
        canReplay,
        ...extra,
      },
      status,
    );
  }

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/webhooks', need: ALL_ROLES },
    async ({ request, reply, actor: current }) => {
      const before =
        typeof request.query.before === 'string' && isId('evt', request.query.before)
          ? request.query.before
          : undefined;
      return deadLetters(reply, current, before);
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/webhooks/:id/replay',
      params: { id: idParam('evt', 'There is no such webhook delivery.') },
      need: CHANGE_ROLES,
    },
    async ({ request, reply, actor: current }) => {
      const id = request.params.id;
      try {
        const replayed = await webhooks.replay(id);
        await kit.audit(request, current, {
          action: 'webhook_delivery.replay',
          target: { type: 'delivery', id },
          after: { replayed },
        });
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        if (err.statusCode === 404) throw new WebRefusal(404, 'There is no such webhook delivery.');
        return deadLetters(reply, current, undefined, { error: err.message }, err.statusCode);
      }
      return deadLetters(reply, current, undefined, {
        notice: `Delivery ${id} queued again: it is sent now, with fresh retries.`,
      });
    },
  );
}
