import type { FastifyInstance, FastifyReply } from 'fastify';
import type { BoardColumn } from '../../modules/dispatch/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import {
  utc,
  holds,
  ALL_ROLES,
  CHANGE_ROLES,
  type ConsoleKit,
  type OperatorCurrent,
} from './kit.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { isId } from '../../platform/ids.ts';
import { dispatchMap } from './dispatch-map.ts';
import { readDispatch } from './dispatch-view.ts';

const COLUMNS: ReadonlyArray<{ column: BoardColumn; title: string; empty: string }> = [
  { column: 'late', title: 'Late: nobody accepted in time', empty: 'No order is late.' },
  { column: 'unassigned', title: 'Waiting for a courier', empty: 'No order is waiting.' },
  { column: 'offered', title: 'Offered', empty: 'No offer is open.' },
  { column: 'in_progress', title: 'In progress', empty: 'No courier is on a job.' },
];

/**
 * The dispatch board: a map of on-duty couriers and open orders (drawn by a served script from the
 * board's event stream), the couriers with their position's age, production orders by column (late,
 * waiting, offered with its countdown, in progress), and the operator's hand assignment (or
 * reassignment) to an on-duty courier, audited, from the list or a map marker's popup. Support and
 * admin assign; finance reads. Only couriers who may take the job are offered.
 */
export function registerConsoleDispatchRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { dispatch, audit } = kit.deps;
  if (!dispatch) return;

  const map = dispatchMap(app, kit);

  async function board(
    reply: FastifyReply,
    current: OperatorCurrent,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const { entries, onDuty, names } = await readDispatch(dispatch!, kit.deps.couriers.service);
    const canAssign = holds(current, CHANGE_ROLES);
    const busy = new Set(entries.map((e) => e.courier_id));
    const columns = COLUMNS.map((c) => ({
      ...c,
      entries: entries
        .filter((e) => e.column === c.column)
        .map((e) => {
          const holder = e.courier_id ?? e.offer_courier_id;
          return {
            ...e,
            since: utc(e.late_at ?? e.created_at).slice(11),
            expires: e.offer_expires_at ? utc(e.offer_expires_at).slice(11) : undefined,
            expiresAt: e.offer_expires_at ? new Date(e.offer_expires_at).toISOString() : undefined,
            holder,
            holderName: holder ? (names.get(holder) ?? holder) : undefined,
            // Anyone on duty but the courier who holds the job.
            choices: canAssign
              ? onDuty
                  .filter((k) => k.id !== e.courier_id)
                  .map((k) => ({ id: k.id, label: names.get(k.id)! }))
              : [],
          };
        }),
    }));
    const couriers = onDuty.map((c) => ({
      id: c.id,
      name: c.name,
      vehicle: c.vehicle,
      busy: busy.has(c.id),
      seen: c.last_position_at ? utc(c.last_position_at).slice(11) : undefined,
      seenAt: c.last_position_at ? new Date(c.last_position_at).toISOString() : undefined,
    }));
    return kit.page(
      reply,
      'dispatch',
      {
        title: 'Dispatch',
        columns,
        couriers,
        late: entries.filter((e) => e.column === 'late').length,
        map: map.view,
        pageCss: [map.view.css],
        pageJs: map.view.js,
        events: kit.deps.listen ? '/console/events/dispatch' : undefined,
        ...extra,
      },
      status,
      map.headers,
    );
  }

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/dispatch', need: ALL_ROLES },
    async ({ reply, actor: current }) => {
      return board(reply, current);
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/dispatch/:id/assign',
      params: { id: idParam('dlv', 'There is no such order.') },
      need: CHANGE_ROLES,
      form: { courier_id: { max: 40, label: 'Courier' } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      const id = request.params.id;
      if (!isId('cou', f.courier_id)) throw new WebRefusal(400, 'Pick a courier from the list.');
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
    },
  );
}
