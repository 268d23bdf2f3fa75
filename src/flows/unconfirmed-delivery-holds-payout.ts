import type { CatalogModule } from '../modules/catalog/index.ts';
import type { HeldSubjects } from '../modules/payouts/index.ts';
import type { ConfirmationService } from '../modules/proof/index.ts';

/**
 * Payouts' port: of a run's journal subjects, the sales whose delivery a photo or signature proved
 * and whose recipient has not confirmed it (nor an operator accepted it). Their shares (the vendor's
 * and the partner's, cod or prepaid) wait for a later run. Read in the run's transaction.
 */
export const heldSubjects =
  (ctx: {
    catalog: CatalogModule | undefined;
    proofConfirmations: ConfirmationService;
  }): HeldSubjects =>
  async (q, subjectIds) => {
    const sales = subjectIds.filter((id) => id.startsWith('sale_'));
    if (!ctx.catalog || sales.length === 0) return new Set();
    const orders = await ctx.catalog.operatorSales.deliveryOrdersOf(q, sales);
    if (orders.size === 0) return new Set();
    const waiting = new Set(await ctx.proofConfirmations.waitingAmong(q, [...orders.values()]));
    return new Set([...orders].filter(([, order]) => waiting.has(order)).map(([sale]) => sale));
  };
