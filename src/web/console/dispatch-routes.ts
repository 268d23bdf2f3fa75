import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BoardColumn } from '../../modules/dispatch/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { ALL_ROLES, CHANGE_ROLES, type ConsoleKit, type OperatorCurrent } from './kit.ts';

const ORDER_ID = /^dlv_[0-9A-Z]{26}$/;
const COURIER_ID = /^cou_[0-9A-Z]{26}$/;
type Params = { Params: { id: string } };

const COLUMNS: ReadonlyArray<{ column: BoardColumn; title: string; empty: string }> = [
  { column: 'late', title: 'Late: nobody accepted in time', empty: 'No order is late.' },
  { column: 'unassigned', title: 'Waiting for a courier', empty: 'No order is waiting.' },
  { column: 'offered', title: 'Offered', empty: 'No offer is open.' },
  { column: 'in_progress', title: 'In progress', empty: 'No courier is on a job.' },
];
const utc = (d: Date) => `${d.toISOString().slice(11, 16)} UTC`;

/**
 * The dispatch board: production orders by column (late, waiting, offered, in progress), and the
 * operator's hand assignment (or reassignment) to an on-duty courier, audited. Support and admin
 * assign; finance reads. Only couriers who may take the job are offered.
 */
export function registerConsoleDispatchRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { dispatch, audit } = kit.deps;
  if (!dispatch) return;

  async function board(reply: FastifyReply, current: OperatorCurrent, extra: Record<string, unknown> = {}, status = 200) {
    const [entries, couriers] = await Promise.all([dispatch!.board(), dispatch!.assignable()]);
    const canAssign = current.operator.roles.some((r) => CHANGE_ROLES.includes(r));
    const names = new Map(couriers.map((c) => [c.id, `${c.name} (${c.vehicle})`]));
    const columns = COLUMNS.map((c) => ({
      ...c,
      entries: entries
        .filter((e) => e.column === c.column)
        .map((e) => ({
          ...e,
          since: utc(e.late_at ?? e.created_at),
          expires: e.offer_expires_at ? utc(e.offer_expires_at) : undefined,
          holder: e.courier_id ?? e.offer_courier_id,
          holderName: names.get(e.courier_id ?? e.offer_courier_id ?? '') ?? e.courier_id ?? e.offer_courier_id,
          // Anyone on duty but the courier who holds the job.
          choices: canAssign ? couriers.filter((k) => k.id !== e.courier_id).map((k) => ({ id: k.id, label: names.get(k.id)! })) : [],
        })),
    }));
    return kit.page(reply, 'dispatch', { title: 'Dispatch', columns, late: entries.filter((e) => e.column === 'late').length, ...extra }, status);
  }

  app.get('/console/dispatch', async (request, reply) => {
    const current = await kit.operator(request, reply, ALL_ROLES);
    if (!current) return reply;
    return board(reply, current);
  });

  app.post<Params>('/console/dispatch/:id/assign', async (request: FastifyRequest<Params>, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { courier_id: { max: 40, label: 'Courier' } }, current);
    const id = request.params.id;
    if (!ORDER_ID.test(id)) throw new WebRefusal(404, 'There is no such order.');
    if (!COURIER_ID.test(f.courier_id)) throw new WebRefusal(400, 'Pick a courier from the list.');
    try {
      const done = await dispatch.assign(id, f.courier_id);
      await audit.record({
        actor: kit.actor(current),
        action: 'dispatch_order.assign',
        target: { type: 'order', id },
        before: { courier_id: done.previous_courier_id },
        after: { courier_id: done.courier_id, stage: done.stage, status: done.status },
        origin: kit.origin(request),
      });
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return board(reply, current, { error: `Not assigned: ${err.message}` }, err.statusCode);
    }
    return board(reply, current, { notice: 'Assigned.' });
  });
}
