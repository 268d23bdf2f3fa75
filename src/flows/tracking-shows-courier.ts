import type { CourierTracker } from '../modules/delivery/index.ts';
import type { DispatchModule } from '../modules/dispatch/index.ts';

/** Delivery's `CourierTracker` port: where an order's courier is, from dispatch's trail (asked at request time, once dispatch exists). */
export const courierTracker = (ctx: { dispatch: DispatchModule | undefined }): CourierTracker => ({
  forOrder: async (orderId) => ctx.dispatch?.trail.forOrder(orderId),
  forOrders: async (orderIds) => ctx.dispatch?.trail.forOrders(orderIds) ?? new Map(),
  phoneFor: async (orderId) => ctx.dispatch?.trail.phoneFor(orderId),
  alongside: {
    column: (orderId) => ctx.dispatch?.trail.alongside.column(orderId) ?? 'null',
    read: async (value) => ctx.dispatch?.trail.alongside.read(value),
  },
});
