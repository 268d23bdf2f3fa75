import type { CashService } from '../modules/cash/index.ts';
import type { CatalogModule } from '../modules/catalog/index.ts';
import type { CodVendorsOf, PayoutsModule } from '../modules/payouts/index.ts';
import { defineFlow } from '../platform/module.ts';

/**
 * Same-day vendors are paid after each courier cash handover: the handover's transaction writes
 * the run's request (the cash module only tells; payouts decides, at once after the commit or from
 * its job), and the run pays the vendors of the cash-on-delivery sales whose cash was handed over.
 */
export const handoverStartsSameDayRun = defineFlow({
  name: 'a cash handover starts a same-day run',
  wire: ({ cash, payouts }: { cash: CashService | undefined; payouts: PayoutsModule }) => {
    cash?.onHandover((tx, h) =>
      payouts.runRequests.request(tx, {
        handoverId: h.id,
        courierId: h.courier_id,
        handedOverAt: h.created_at,
      }),
    );
  },
});

/** Payouts' port: the vendors of the cash-on-delivery sales among these orders (none without a catalog here). */
export const codVendorsOf =
  (ctx: { catalog: CatalogModule | undefined }): CodVendorsOf =>
  async (orders) =>
    ctx.catalog ? ctx.catalog.operatorSales.codVendorsOf(orders) : [];
