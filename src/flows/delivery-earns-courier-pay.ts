import type { CashService } from '../modules/cash/index.ts';
import type { CouriersService } from '../modules/couriers/index.ts';
import { isFailedAttempt, type DeliveryModule } from '../modules/delivery/index.ts';
import type { DispatchModule } from '../modules/dispatch/index.ts';
import { occasionOf, type EarningsService } from '../modules/earnings/index.ts';
import { defineFlow } from '../platform/module.ts';

/**
 * A production order delivered, or one of its trips that could not deliver, earns the courier who
 * carried it their pay, in the move's own transaction (after dispatch's listener): the courier and
 * the job's zone from dispatch, their vehicle from couriers, the road estimate from delivery, priced
 * by the pay rule in force (earnings, once per order and occasion). Where the pay policy says so,
 * cash the courier holds is set against it (cash). An order no courier carried earns nothing.
 */
export const deliveryEarnsCourierPay = defineFlow({
  name: "a courier's delivery or failed attempt earns their pay",
  wire: ({
    delivery,
    dispatch,
    couriers,
    earnings,
    cash,
  }: {
    delivery: DeliveryModule | undefined;
    dispatch: DispatchModule | undefined;
    couriers: CouriersService;
    earnings: EarningsService;
    cash: CashService | undefined;
  }) => {
    if (!delivery || !dispatch) return;
    delivery.orders.onMove(async (tx, order, from) => {
      if (order.environment !== 'production') return;
      const occasion = occasionOf({
        to: order.status,
        attempts: order.delivery_attempts,
        failedAttempt: isFailedAttempt(from, order.status),
      });
      if (!occasion) return;
      const carrier = await dispatch.service.carrierOf(tx, order.id);
      if (!carrier) return;
      const earning = await earnings.book(tx, {
        orderId: order.id,
        courierId: carrier.courierId,
        occasion,
        zone: carrier.zone,
        vehicle: (await couriers.get(carrier.courierId, tx)).vehicle,
        roadKm: await delivery.orders.roadKm(order.id, tx),
      });
      if (!earning || earning.amount_pesewas === 0 || !cash) return;
      if (!(await earnings.netsCodCash(tx, earning.earned_at))) return;
      const netted = await cash.netAgainstEarning(tx, {
        id: earning.id,
        courierId: carrier.courierId,
        amountPesewas: earning.amount_pesewas,
      });
      if (netted > 0) await earnings.recordNetted(tx, earning.id, netted);
    });
  },
});
