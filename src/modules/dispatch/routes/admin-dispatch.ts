import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../platform/http/admin.ts';
import { Id, strictObject } from '../../../platform/http/schemas.ts';
import type { BoardEntry, DispatchService } from '../service.ts';

/** The board line as operators read it (times in ISO 8601). */
export function boardView(e: BoardEntry) {
  return {
    order_id: e.order_id,
    column: e.column,
    zone: e.zone,
    pickup:
      e.pickup_lat !== null && e.pickup_lng !== null
        ? { lat: e.pickup_lat, lng: e.pickup_lng }
        : null,
    offered_to: e.offer_courier_id,
    offer_expires_at: e.offer_expires_at?.toISOString() ?? null,
    courier_id: e.courier_id,
    stage: e.stage,
    // Multi-drop: the jobs of one batch share batch_id (one offer, one courier); stop is the drop's place in its route.
    batch_id: e.batch_id,
    stop: e.stop,
    late_since: e.late_at?.toISOString() ?? null,
    created_at: e.created_at.toISOString(),
    // Delivery windows: offered from due_at; window_missed_since once it will miss its deadline.
    due_at: e.due_at.toISOString(),
    dropoff_deadline: e.dropoff_deadline?.toISOString() ?? null,
    window_missed_since: e.window_missed_at?.toISOString() ?? null,
  };
}

export const dispatchAdminRoutes = (dispatch: DispatchService) => [
  defineAdminRoute({
    method: 'GET',
    url: '/dispatch/board',
    summary:
      'The dispatch board: production orders waiting for a courier, offered, in progress and late',
    handler: async () => ({ body: { data: (await dispatch.board()).map(boardView) } }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/dispatch/orders/:order_id/assign',
    audit: { action: 'dispatch_order.assign' },
    summary:
      'Give an order to a courier by hand (or take it from one and give it to another); open offers are withdrawn',
    params: strictObject({ order_id: Id }),
    body: strictObject({
      courier_id: Id,
      expected_courier_id: Type.Optional(
        Type.Union([Id, Type.Null()], {
          description:
            'The courier the caller believes holds the order (null: nobody). When given and no longer true, 409 ASSIGNMENT_CHANGED and nothing changes.',
        }),
      ),
    }),
    handler: async ({ params, body }) => ({
      body: await dispatch.assign(
        params.order_id,
        body.courier_id,
        body.expected_courier_id === undefined
          ? undefined
          : { courierId: body.expected_courier_id },
      ),
    }),
  }),
];
