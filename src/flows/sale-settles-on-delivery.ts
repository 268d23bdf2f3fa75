import type { CatalogModule } from '../modules/catalog/index.ts';
import type { DeliveryModule } from '../modules/delivery/index.ts';
import { defineFlow } from '../platform/module.ts';

/**
 * A sale follows its delivery order in the move's own transaction: delivered settles its shares
 * (vendor, partner, commission, delivery revenue), failed fails the sale (a prepaid one owes its
 * buyer a refund). Without delivery in this instance, the sales job follows deliveries that ended
 * elsewhere instead.
 */
export const saleSettlesOnDelivery = defineFlow({
  name: "a sale's delivery settles it",
  wire: ({
    delivery,
    catalog,
  }: {
    delivery: DeliveryModule | undefined;
    catalog: CatalogModule | undefined;
  }) => {
    if (delivery && catalog)
      delivery.orders.onMove((tx, order) => catalog.sales.onDeliveryMove(tx, order));
  },
});
