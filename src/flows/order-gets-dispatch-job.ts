import type { DeliveryModule } from '../modules/delivery/index.ts';
import type { DispatchModule } from '../modules/dispatch/index.ts';
import { defineFlow } from '../platform/module.ts';

/**
 * A production order placed gets its dispatch job in the same statement: delivery's insert
 * carries dispatch's (a CTE), so an order never exists without the job that will offer it.
 * Dispatch never reads delivery's tables; delivery never names dispatch's.
 */
export const orderGetsDispatchJob = defineFlow({
  name: 'an order gets its dispatch job',
  wire: ({
    delivery,
    dispatch,
  }: {
    delivery: DeliveryModule | undefined;
    dispatch: DispatchModule | undefined;
  }) => {
    if (delivery && dispatch) delivery.orders.onPlace(dispatch.offers.onPlace);
  },
});
