import type { DispatchModule } from '../modules/dispatch/index.ts';
import { isNear, type MessagesModule } from '../modules/messages/index.ts';
import type { Db } from '../platform/db/index.ts';
import { defineFlow } from '../platform/module.ts';

interface Needs {
  db: Db;
  clock: () => number;
  dispatch: DispatchModule | undefined;
  messages: MessagesModule | undefined;
}

/**
 * A courier's position report that finds them near the drop-off of the drop they work on (messages'
 * `isNear`: after the pickup, within 500 m or 4 minutes) records the recipient's "courier near"
 * message, once per order (its unique key), in a transaction of its own; the sender sends it after
 * the commit. Reports come from every courier every few seconds, so the decision uses what
 * dispatch's trail already read for the report (its current drop, order and ETA); only a courier
 * near a production drop-off costs a read (whether the message was recorded).
 */
export const courierNearTextsRecipient = defineFlow({
  name: 'a courier near the drop-off texts the recipient',
  wire: ({ db, clock, dispatch, messages }: Needs) => {
    if (!dispatch || !messages) return;
    dispatch.trail.onProgress(async ({ order, stage, dropoff, progress, courierName }) => {
      if (stage !== 'picked_up' && stage !== 'at_dropoff') return;
      if (order.environment !== 'production' || !isNear(progress, dropoff, clock())) return;
      if (await messages.service.recorded(order.id, 'courier_near')) return;
      await db.transaction((tx) =>
        messages.service.record(tx, { order, kind: 'courier_near', courierName }),
      );
    });
  },
});
