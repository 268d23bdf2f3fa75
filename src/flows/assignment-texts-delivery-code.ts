import type { CouriersService } from '../modules/couriers/index.ts';
import type { DeliveryModule } from '../modules/delivery/index.ts';
import type { DispatchModule } from '../modules/dispatch/index.ts';
import type { MessagesModule } from '../modules/messages/index.ts';
import type { ProofService } from '../modules/proof/index.ts';
import { defineFlow } from '../platform/module.ts';

interface Needs {
  dispatch: DispatchModule | undefined;
  delivery: DeliveryModule | undefined;
  messages: MessagesModule | undefined;
  couriers: CouriersService;
  proofs: ProofService;
}

/**
 * When a courier is given a job, the recipient's delivery code is issued in the assignment's
 * transaction, and in the same transaction the message carrying it (with the tracking link and
 * the courier's first name) is recorded and charged (messages: also by WhatsApp when configured);
 * right after the commit it is sent, and the messages' sender retries what that could not send.
 * Staging never messages anyone: its recipients are partners' test data, not people to wake up;
 * nor do the sandbox courier's jobs on a playground.
 */
export const assignmentTextsDeliveryCode = defineFlow({
  name: "an assignment texts the recipient's delivery code",
  wire: ({ dispatch, delivery, messages, couriers, proofs }: Needs) => {
    if (!dispatch || !delivery || !messages) return;
    dispatch.service.onAssign(async (tx, { orderId, courierId }) => {
      const { code } = await proofs.issueCode(orderId, { q: tx });
      const order = code ? await delivery.orders.find(orderId, tx) : undefined;
      if (!code || !order || order.environment !== 'production') return undefined;
      // Read in the transaction (PGlite has one session): the sandbox courier is marked simulated.
      const courier = await couriers.get(courierId, tx);
      if (courier.simulated) return undefined;
      const ids = await messages.service.record(tx, {
        order,
        kind: 'assigned',
        code,
        courierName: courier.name,
        sendAfterCommit: true,
      });
      // The job is taken either way: a send that fails now is retried by the sender, never undone.
      return ids.length ? async () => void (await messages.sender.sendDue(ids)) : undefined;
    });
  },
});
