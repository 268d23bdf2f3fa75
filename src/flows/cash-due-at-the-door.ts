import { cashDue as due, type DueOnDelivery } from '../modules/cash/index.ts';
import type { CatalogModule } from '../modules/catalog/index.ts';
import type { DeliveryModule } from '../modules/delivery/index.ts';

/**
 * The cash module's port: what the courier must collect at an order's door, from the delivery
 * order (recipient-paid fee) and its cash-on-delivery sale, if any. Staging's sandbox courier
 * collects nothing: test orders never reach the books.
 */
export const cashDue =
  (ctx: {
    delivery: DeliveryModule | undefined;
    catalog: CatalogModule | undefined;
  }): DueOnDelivery =>
  async (tx, orderId) => {
    const order = await ctx.delivery!.orders.find(orderId, tx);
    return order?.environment === 'staging'
      ? due(undefined, undefined)
      : due(order, await ctx.catalog?.sales.cashOnDelivery(tx, orderId));
  };
