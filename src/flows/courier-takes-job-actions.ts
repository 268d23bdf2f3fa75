import type { ActionDetail, CourierActions } from '../modules/couriers/index.ts';
import type { DispatchModule } from '../modules/dispatch/index.ts';
import { errors } from '../platform/errors.ts';
import { defineFlow } from '../platform/module.ts';

/** What the phone is told of an applied job action: where the job and its order are now. */
export const detail = (r: { stage: string | null; status: string }): ActionDetail => ({
  stage: r.stage,
  status: r.status,
});

export function orderIdOf(payload: Record<string, unknown>): string {
  if (typeof payload.order_id !== 'string')
    throw errors.validation("order_id must be the job's order id.", [
      { field: 'order_id', issue: 'required' },
    ]);
  return payload.order_id;
}

/**
 * The courier app's job actions, between couriers (the action endpoint: each action id claimed in
 * the unit of work its handler runs in, with the outcome kept there) and dispatch (the jobs, whose
 * transaction joins that unit), so that neither module knows the other's direction. "delivered"
 * has a flow of its own (courier-delivers-order.ts).
 */
export const courierTakesJobActions = defineFlow({
  name: 'a courier takes job actions',
  wire: ({
    courierActions: actions,
    dispatch,
  }: {
    courierActions: CourierActions;
    dispatch: DispatchModule | undefined;
  }) => {
    if (!dispatch) return;
    const jobs = dispatch.service;
    actions.register('accept', async ({ courierId, payload, afterCommit }) =>
      detail(await jobs.accept(courierId, orderIdOf(payload), { afterCommit })),
    );
    actions.register('decline', async ({ courierId, payload, afterCommit }) =>
      detail(await jobs.decline(courierId, orderIdOf(payload), { afterCommit })),
    );
    actions.register('arrived_at_pickup', async ({ courierId, payload, afterCommit }) =>
      detail(await jobs.arrivedAtPickup(courierId, orderIdOf(payload), { afterCommit })),
    );
    actions.register('picked_up', async ({ courierId, payload, afterCommit }) =>
      detail(await jobs.pickedUp(courierId, orderIdOf(payload), { unit: { afterCommit } })),
    );
    actions.register('arrived', async ({ courierId, payload, afterCommit }) =>
      detail(await jobs.arrived(courierId, orderIdOf(payload), { afterCommit })),
    );
    actions.register('could_not_deliver', async ({ courierId, payload, afterCommit }) =>
      detail(
        await jobs.couldNotDeliver(courierId, orderIdOf(payload), payload.reason, payload.note, {
          afterCommit,
        }),
      ),
    );
    actions.register('returned', async ({ courierId, payload, afterCommit }) =>
      detail(await jobs.returned(courierId, orderIdOf(payload), { afterCommit })),
    );
  },
});
