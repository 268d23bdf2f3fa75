import type { FastifyInstance, FastifyReply } from 'fastify';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { holds, ALL_ROLES, CHANGE_ROLES, type ConsoleKit, type OperatorCurrent } from './kit.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { isId } from '../../platform/ids.ts';
import { dispatchMap } from './dispatch-map.ts';
import { boardView, readDispatch } from './dispatch-view.ts';

/**
 * The dispatch board: a map of on-duty couriers and open orders (drawn by a served script from the
 * board's event stream), the couriers with their position's age, production orders by column (late,
 * waiting, offered with its countdown, in progress), and the operator's hand assignment (or
 * reassignment) to an on-duty courier, audited, from the list or a map marker's popup. Support and
 * admin assign; finance reads. Only couriers who may take the job are offered.
 */
export function registerConsoleDispatchRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { dispatch } = kit.deps;
  if (!dispatch) return;

  const map = dispatchMap(app, kit);

  async function board(
    reply: FastifyReply,
    current: OperatorCurrent,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const read = await readDispatch(dispatch!, kit.deps.couriers.service);
    const { columns, couriers, late } = boardView(read, holds(current, CHANGE_ROLES));
    return kit.page(
      reply,
      'dispatch',
      {
        title: 'Dispatch',
        columns,
        couriers,
        late,
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
      form: {
        courier_id: { max: 40, label: 'Courier' },
        holder: { max: 40, label: 'Current courier' },
      },
    },
    async ({ request, reply, actor: current, form: f }) => {
      const id = request.params.id;
      if (!isId('cou', f.courier_id) || (f.holder !== '' && !isId('cou', f.holder)))
        throw new WebRefusal(400, 'Pick a courier from the list.');
      try {
        // The form carries the courier the board showed (empty: nobody), so a change meanwhile is refused.
        const done = await dispatch.assign(id, f.courier_id, { courierId: f.holder || null });
        await kit.audit(request, current, {
          action: 'dispatch_order.assign',
          target: { type: 'order', id },
          before: { courier_id: done.previous_courier_id },
          after: { courier_id: done.courier_id, stage: done.stage, status: done.status },
        });
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        return board(reply, current, { error: `Not assigned: ${err.message}` }, err.statusCode);
      }
      return board(reply, current, { notice: 'Assigned.' });
    },
  );
}
