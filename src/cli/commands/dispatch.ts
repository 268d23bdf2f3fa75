import type { Command } from '../command.ts';
import { block, table, type Fields } from '../output.ts';

const boardFields: Fields = {
  order: 'order_id',
  column: 'column',
  zone: 'zone',
  courier: (e) => e.courier_id ?? e.offered_to,
  stage: 'stage',
  // A multi-drop batch's jobs share one id; the drop's place in the route after it.
  batch: (e) => (e.batch_id ? `${e.batch_id} drop ${e.stop}` : null),
  'late since': 'late_since',
};

export const dispatchGroups = {
  dispatch:
    'Dispatch: production orders waiting for, offered to and held by couriers; assignment by hand',
};

export const dispatchCommands: Command[] = [
  {
    name: 'dispatch board',
    summary: 'The open production orders: late, waiting, offered and in progress',
    route: 'GET /dispatch/board',
    show: (b) => table(b.data, boardFields, '(no open orders)'),
  },
  {
    name: 'dispatch assign',
    summary:
      'Give an order to a courier by hand (reassigns one already held); open offers are withdrawn',
    route: 'POST /dispatch/orders/:order_id/assign',
    usage: 'ORDER_ID --courier COURIER_ID',
    payload: (a) => ({ courier_id: a.courier }),
    show: (b) =>
      block(b, {
        order: 'order_id',
        courier: 'courier_id',
        previous: 'previous_courier_id',
        stage: 'stage',
        status: 'status',
      }),
    help: { courier: 'The courier who takes the order (active; cou_…)' },
  },
];
