import type { CouriersService } from '../modules/couriers/index.ts';
import type { DispatchModule } from '../modules/dispatch/index.ts';
import { defineFlow } from '../platform/module.ts';

/**
 * A courier's newest position is added to the trail of every job they hold, and (at most once per
 * 20 s per job) becomes the `delivery.courier.location` event with its ETA. Whether they hold one
 * is asked inside the report's own update: a courier without a job costs that one statement.
 */
export const courierPositionExtendsTrail = defineFlow({
  name: "a courier's position extends their jobs' trails",
  wire: ({
    couriers,
    dispatch,
  }: {
    couriers: CouriersService;
    dispatch: DispatchModule | undefined;
  }) => {
    if (dispatch) couriers.onPosition(dispatch.trail.onPosition, dispatch.trail.holdsJob);
  },
});
