import type { FastifyInstance, FastifyReply } from 'fastify';
import { ACTIVATION_STATES, type ActivationState } from '../../modules/activation/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import {
  holds,
  ALL_ROLES,
  CHANGE_ROLES,
  unlessMissing,
  type ConsoleKit,
  type OperatorCurrent,
} from './kit.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { isId } from '../../platform/ids.ts';

const PAGE_SIZE = 50;

/** The activation queue: by state (submitted first), a request in full, approve, reject with a reason. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerConsoleActivationRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { activation, accounts } = kit.deps;

  async function requestPage(
    reply: FastifyReply,
    current: OperatorCurrent,
    id: string,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const row = await unlessMissing(activation.get(id));
    if (!row) throw new WebRefusal(404, 'There is no such activation request.');
    const partner = await accounts.getPartner(row.partner_id);
    const canDecide = holds(current, CHANGE_ROLES);
    return kit.page(
      reply,
      'request',
      { title: `Activation ${row.id}`, row, partner, canDecide, ...extra },
      status,
    );
  }

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/activation', need: ALL_ROLES },
    async ({ request, reply }) => {
      const query = request.query as { state?: string; after?: string };
      const state: ActivationState = (ACTIVATION_STATES as readonly string[]).includes(
        query.state ?? '',
      )
        ? (query.state as ActivationState)
        : 'submitted';
      const after = isId('act', query.after) ? query.after : undefined;
      const rows = await activation.list({ state, limit: PAGE_SIZE, ...(after ? { after } : {}) });
      const next = rows.length === PAGE_SIZE ? rows.at(-1)!.id : undefined;
      return kit.page(reply, 'queue', {
        title: 'Activation queue',
        state,
        states: ACTIVATION_STATES,
        rows,
        next,
      });
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/activation/:id',
      params: { id: idParam('act', 'There is no such activation request.') },
      need: ALL_ROLES,
    },
    async ({ request, reply, actor: current }) => {
      return requestPage(reply, current, request.params.id);
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/activation/:id/approve',
      params: { id: idParam('act', 'There is no such activation request.') },
      need: CHANGE_ROLES,
    },
    async ({ request, reply, actor: current }) => {
      return decide(
        reply,
        current,
        request.params.id,
        () => activation.approve(request.params.id, kit.actor(current), kit.origin(request)),
        'Approved: production access is on and the owners are emailed.',
      );
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/activation/:id/reject',
      params: { id: idParam('act', 'There is no such activation request.') },
      need: CHANGE_ROLES,
      form: { reason: { max: 1000, label: 'Reason', multiline: true } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      return decide(
        reply,
        current,
        request.params.id,
        () =>
          activation.reject(request.params.id, f.reason, kit.actor(current), kit.origin(request)),
        'Rejected: the owners are emailed the reason.',
        f.reason,
      );
    },
  );

  /** Runs a decision; a refusal the operator can act on (wrong state, bad reason) is shown on the request's page. */
  async function decide(
    reply: FastifyReply,
    current: OperatorCurrent,
    id: string,
    action: () => Promise<unknown>,
    notice: string,
    reason?: string,
  ) {
    try {
      await action();
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      if (err.statusCode === 404) throw new WebRefusal(404, 'There is no such activation request.');
      return requestPage(reply, current, id, { error: err.message, reason }, err.statusCode);
    }
    return requestPage(reply, current, id, { notice });
  }
}
