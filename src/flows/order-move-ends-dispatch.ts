import type { DeliveryModule } from '../modules/delivery/index.ts';
import type { DispatchModule } from '../modules/dispatch/index.ts';
import { defineFlow } from '../platform/module.ts';

/**
 * Every move of an order is told to dispatch in the move's transaction: delivered, failed or
 * cancelled (by anyone, the operator API included) ends its assignment and offers; moved on from
 * placed by an operator without a courier, it leaves dispatch. Registered before the sale's
 * listener (sale-settles-on-delivery), as the modules were built before.
 */
export const orderMoveEndsDispatch = defineFlow({
  name: "an order's move ends or updates its dispatch job",
  wire: ({
    delivery,
    dispatch,
  }: {
    delivery: DeliveryModule | undefined;
    dispatch: DispatchModule | undefined;
  }) => {
    if (delivery && dispatch) delivery.orders.onMove(dispatch.offers.onMove);
  },
});
