import type { OtherGatewayEvents } from '../integrations/payments/callbacks.ts';
import type { CatalogModule } from '../modules/catalog/index.ts';
import type { OtherTransferHints, PayoutsModule } from '../modules/payouts/index.ts';

/** Payouts' port: a transfer event about a reference that is no payout may be a buyer refund's (mobile money); its outcome or reversal is asked about. */
export const refundHints =
  (ctx: { catalog: CatalogModule | undefined }): OtherTransferHints =>
  (raw, headers) =>
    ctx.catalog?.refunds.hint(raw, headers) ?? Promise.resolve(false);

/**
 * The payment callbacks' port: Paystack sends transfer events to the one webhook URL its
 * collections use; payouts read them first, and one about no payout goes to the refunds.
 */
export const transferEvents =
  (ctx: {
    transfers: { name: string };
    payouts: PayoutsModule;
    refundHints: OtherTransferHints;
  }): OtherGatewayEvents =>
  async (gateway, headers, rawBody) => {
    if (gateway !== ctx.transfers.name) return false;
    const raw = rawBody.toString('utf8');
    const answer = await ctx.payouts.sender.hint(raw, headers);
    if (answer === 'unknown') await ctx.refundHints(raw, headers);
    return answer !== 'invalid';
  };
