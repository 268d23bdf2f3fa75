import type { CouriersService } from '../modules/couriers/index.ts';
import type { DeliveryModule } from '../modules/delivery/index.ts';
import type { DispatchModule } from '../modules/dispatch/index.ts';
import { isNear, type MessagesModule } from '../modules/messages/index.ts';
import type { Db } from '../platform/db/index.ts';
import { defineFlow } from '../platform/module.ts';

interface Needs {
  db: Db;
  clock: () => number;
  couriers: CouriersService;
  delivery: DeliveryModule | undefined;
  dispatch: DispatchModule | undefined;
  messages: MessagesModule | undefined;
}

/**
 * A courier's position report (after dispatch's trail took it) that finds them near the drop-off
 * of the job they carry (messages' `isNear`: after the pickup, within 500 m or 4 minutes) records
 * the recipient's "courier near" message, once per order (its unique key; a cheap look first, as
 * reports come every few seconds), in a transaction of its own; the sender sends it after the commit.
 */
export const courierNearTextsRecipient = defineFlow({
  name: 'a courier near the drop-off texts the recipient',
  wire: ({ db, clock, couriers, delivery, dispatch, messages }: Needs) => {
    if (!delivery || !dispatch || !messages) return;
    couriers.onPosition(async (courierId) => {
      const job = await dispatch.service.currentJob(courierId);
      if (job?.kind !== 'job' || (job.stage !== 'picked_up' && job.stage !== 'at_dropoff')) return;
      if (await messages.service.recorded(job.order_id, 'courier_near')) return;
      const [progress, sheet, order] = await Promise.all([
        dispatch.trail.forOrder(job.order_id),
        delivery.orders.jobSheet(job.order_id),
        delivery.orders.find(job.order_id),
      ]);
      if (!progress || !sheet || !order || order.environment !== 'production') return;
      const { delivery_lat: lat, delivery_lng: lng } = sheet;
      const dropoff = lat === null || lng === null ? null : { lat, lng };
      if (!isNear(progress, dropoff, clock())) return;
      const courier = await couriers.get(courierId);
      await db.transaction((tx) =>
        messages.service.record(tx, {
          order,
          kind: 'courier_near',
          courierName: courier.name,
        }),
      );
    });
  },
});
