import type { FastifyInstance, FastifyReply } from 'fastify';
import { ACTIVATION_STATES, type ActivationState } from '../../modules/activation/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { ALL_ROLES, CHANGE_ROLES, unlessMissing, type ConsoleKit, type OperatorCurrent } from './kit.ts';

const REQUEST_ID = /^act_[0-9A-Z]{26}$/;
const PAGE_SIZE = 50;
type Params = { Params: { id: string } };

/** The activation queue: by state (submitted first), a request in full, approve, reject with a reason. */
export function registerConsoleActivationRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { activation, accounts } = kit.deps;

  async function requestPage(reply: FastifyReply, current: OperatorCurrent, id: string, extra: Record<string, unknown> = {}, status = 200) {
    if (!REQUEST_ID.test(id)) throw new WebRefusal(404, 'There is no such activation request.');
    const row = await unlessMissing(activation.get(id));
    if (!row) throw new WebRefusal(404, 'There is no such activation request.');
    const partner = await accounts.getPartner(row.partner_id);
    const canDecide = current.operator.roles.some((r) => CHANGE_ROLES.includes(r));
    return kit.page(reply, 'request', { title: `Activation ${row.id}`, row, partner, canDecide, ...extra }, status);
  }

  app.get<{ Querystring: { state?: string; after?: string } }>('/console/activation', async (request, reply) => {
    const current = await kit.operator(request, reply, ALL_ROLES);
    if (!current) return reply;
    const state: ActivationState = (ACTIVATION_STATES as readonly string[]).includes(request.query.state ?? '') ? (request.query.state as ActivationState) : 'submitted';
    const after = REQUEST_ID.test(request.query.after ?? '') ? request.query.after : undefined;
    const rows = await activation.list({ state, limit: PAGE_SIZE, ...(after ? { after } : {}) });
    const next = rows.length === PAGE_SIZE ? rows.at(-1)!.id : undefined;
    return kit.page(reply, 'queue', { title: 'Activation queue', state, states: ACTIVATION_STATES, rows, next });
  });

  app.get<Params>('/console/activation/:id', async (request, reply) => {
    const current = await kit.operator(request, reply, ALL_ROLES);
    if (!current) return reply;
    return requestPage(reply, current, request.params.id);
  });

  app.post<Params>('/console/activation/:id/approve', async (request, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    kit.form(request, {}, current);
    return decide(reply, current, request.params.id, () => activation.approve(request.params.id, kit.actor(current), kit.origin(request)), 'Approved: production access is on and the owners are emailed.');
  });

  app.post<Params>('/console/activation/:id/reject', async (request, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { reason: { max: 1000, label: 'Reason', multiline: true } }, current);
    return decide(reply, current, request.params.id, () => activation.reject(request.params.id, f.reason, kit.actor(current), kit.origin(request)), 'Rejected: the owners are emailed the reason.', f.reason);
  });

  /** Runs a decision; a refusal the operator can act on (wrong state, bad reason) is shown on the request's page. */
  async function decide(reply: FastifyReply, current: OperatorCurrent, id: string, action: () => Promise<unknown>, notice: string, reason?: string) {
    if (!REQUEST_ID.test(id)) throw new WebRefusal(404, 'There is no such activation request.');
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
