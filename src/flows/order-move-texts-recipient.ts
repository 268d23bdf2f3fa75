import type { CouriersService } from '../modules/couriers/index.ts';
import type { DeliveryModule } from '../modules/delivery/index.ts';
import { isFailedAttempt } from '../modules/delivery/index.ts';
import type { DispatchModule } from '../modules/dispatch/index.ts';
import type { MessagesModule } from '../modules/messages/index.ts';
import { defineFlow } from '../platform/module.ts';

/**
 * An order delivered, or a delivery that failed (a courier's could-not-deliver, another attempt or
 * the return, or the order failed), records the recipient's message in the move's transaction
 * (messages: per the app's settings, skipped after STOP, charged once; one per failed attempt, keyed
 * by the order's version); the messages' sender, woken by the commit, sends it. Nothing for staging
 * orders nor for the sandbox courier's jobs.
 */
export const orderMoveTextsRecipient = defineFlow({
  name: 'a delivered or failed order texts its recipient',
  wire: ({
    delivery,
    dispatch,
    couriers,
    messages,
  }: {
    couriers: CouriersService;
    delivery: DeliveryModule | undefined;
    dispatch: DispatchModule | undefined;
    messages: MessagesModule | undefined;
  }) => {
    if (!delivery || !messages) return;
    delivery.orders.onMove(async (tx, order, from) => {
      if (order.environment !== 'production') return;
      const failed = order.status === 'failed' || isFailedAttempt(from, order.status);
      if (order.status !== 'delivered' && !failed) return;
      const carrier = await dispatch?.service.carrierOf(tx, order.id);
      if (carrier && (await couriers.get(carrier.courierId, tx)).simulated) return;
      await messages.service.record(tx, {
        order,
        kind: failed ? 'delivery_failed' : 'delivered',
        occasion: failed ? order.version : 0,
      });
    });
  },
});
