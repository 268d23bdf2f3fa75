import { RefundStatement } from '../modules/catalog/index.ts';
import { PayoutStatement } from '../modules/payouts/index.ts';
import type { GatewayReferences, TransferBooks } from '../modules/reconciliation/index.ts';
import type { CatalogModule } from '../modules/catalog/index.ts';
import type { TopupReads } from '../modules/wallet/index.ts';
import type { Db } from '../platform/db/index.ts';

/** Reconciliation's port: the gateway reference of a ledger subject, from the modules that own it (top-ups, sales). */
export const gatewayReferences =
  (ctx: { topups: TopupReads; catalog: CatalogModule | undefined }): GatewayReferences =>
  async (ids) =>
    new Map([
      ...(await ctx.topups.references(ids)),
      ...((await ctx.catalog?.operatorSales.references(ids)) ?? []),
    ]);

/** Reconciliation's port: money out is matched against the payouts and buyer refunds sent, read through their modules' faces. */
export const transferBooks = (ctx: {
  db: Db;
  config: { services: ReadonlySet<string> };
}): readonly TransferBooks[] => [
  new PayoutStatement(ctx.db),
  ...(ctx.config.services.has('safe-catalog') ? [new RefundStatement(ctx.db)] : []),
];
