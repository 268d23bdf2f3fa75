import type { CatalogModule } from '../modules/catalog/index.ts';
import type { EarningsService } from '../modules/earnings/index.ts';
import type { HeldSubjects } from '../modules/payouts/index.ts';
import type { ConfirmationService } from '../modules/proof/index.ts';

/**
 * Payouts' port: of a run's journal subjects, those for a delivery a photo or signature proved and
 * whose recipient has not confirmed it (nor an operator accepted it): its sale (the vendor's and the
 * partner's shares, cod or prepaid) and its courier's earnings wait for a later run. Read in the
 * run's transaction.
 */
export const heldSubjects =
  (ctx: {
    catalog: CatalogModule | undefined;
    earnings: Pick<EarningsService, 'ordersOf'>;
    proofConfirmations: ConfirmationService;
  }): HeldSubjects =>
  async (q, subjectIds) => {
    const sales = subjectIds.filter((id) => id.startsWith('sale_'));
    const earnings = subjectIds.filter((id) => id.startsWith('cpe_'));
    const orders = new Map([
      ...(ctx.catalog && sales.length
        ? await ctx.catalog.operatorSales.deliveryOrdersOf(q, sales)
        : []),
      ...(earnings.length ? await ctx.earnings.ordersOf(q, earnings) : []),
    ]);
    if (orders.size === 0) return new Set();
    const waiting = new Set(await ctx.proofConfirmations.waitingAmong(q, [...orders.values()]));
    return new Set(
      [...orders].filter(([, order]) => waiting.has(order)).map(([subject]) => subject),
    );
  };
