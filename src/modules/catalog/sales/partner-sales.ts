import type { Db } from '../../../platform/db/index.ts';
import {
  DELIVERY_REVENUE,
  ledger,
  partnerMarkupPayable,
  partnerMarkupReceivable,
  PLATFORM_COMMISSION,
  vendorPayable,
  vendorReceivable,
} from '../../ledger/index.ts';
import { salesRepository as repo, type SaleItemRow, type SaleWithDelivery } from './repository.ts';

export const PARTNER_SALES_PAGE = 25;

/** How each journal that moves a sale's shares moves them: credits when they are earned, debits when taken back. */
const SHARE_SIGNS = {
  sale_settlement: 1,
  sale_settlement_at_delivery: 1,
  sale_refund: -1,
  sale_settlement_deferred: -1,
} as const;
type ShareJournalKind = keyof typeof SHARE_SIGNS;

/** What operators and partners read each share-moving journal as. */
export const SALE_JOURNAL_TITLES: Record<ShareJournalKind, string> = {
  sale_settlement: 'Settlement',
  sale_settlement_at_delivery:
    'Settlement at delivery (its shares had been moved back until delivery)',
  sale_refund: 'Refund (the settlement reversed)',
  sale_settlement_deferred:
    'Settlement moved back until delivery (migration 044: paid, not yet delivered)',
};

/** A ledger journal of a sale, as the ledger recorded it, decomposed into the sale's shares (pesewas). */
export interface SaleJournalBreakdown {
  journalId: string;
  kind: ShareJournalKind;
  postedAt: Date;
  /** What the buyer paid (settlement) or is owed back (refund): the other side of the shares. */
  buyerPaid: number;
  deliveryFee: number;
  markup: number;
  vendorShare: number;
  commission: number;
}

/** The journals that moved a sale's shares, read from the ledger (empty until it was delivered, or settled at payment before migration 044). */
export async function journalsOfSale(
  db: Db,
  sale: SaleWithDelivery,
): Promise<SaleJournalBreakdown[]> {
  const rows = await ledger.subjectEntries(db, [sale.id], Object.keys(SHARE_SIGNS));
  const out = new Map<string, SaleJournalBreakdown>();
  for (const r of rows) {
    let j = out.get(r.journal_id);
    if (!j) {
      j = {
        journalId: r.journal_id,
        kind: r.kind as ShareJournalKind,
        postedAt: r.created_at,
        buyerPaid: 0,
        deliveryFee: 0,
        markup: 0,
        vendorShare: 0,
        commission: 0,
      };
      out.set(r.journal_id, j);
    }
    // Shares are credits when earned and debits when taken back; both are shown as positive amounts.
    const amount = SHARE_SIGNS[j.kind] * Number(r.amount_pesewas);
    if (r.account === DELIVERY_REVENUE) j.deliveryFee += amount;
    else if (r.account === PLATFORM_COMMISSION) j.commission += amount;
    else if (
      r.account === partnerMarkupPayable(sale.partner_id) ||
      r.account === partnerMarkupReceivable(sale.partner_id)
    )
      j.markup += amount;
    else if (
      r.account === vendorPayable(sale.vendor_id) ||
      r.account === vendorReceivable(sale.vendor_id)
    )
      j.vendorShare += amount;
    else j.buyerPaid -= amount;
  }
  return [...out.values()];
}

/** A partner's own sales, for the dashboard: read-only, and another partner's sale is never found. */
export class PartnerSales {
  constructor(private readonly db: Db) {}

  /** One page, newest first (keyset on created_at, id), and the cursor of the next page when there is one. */
  async list(
    partnerId: string,
    afterId: string | undefined,
  ): Promise<{ sales: SaleWithDelivery[]; nextAfter: string | undefined }> {
    const rows = await repo.listForPartner(this.db, partnerId, afterId, PARTNER_SALES_PAGE + 1);
    const sales = rows.slice(0, PARTNER_SALES_PAGE);
    return { sales, nextAfter: rows.length > PARTNER_SALES_PAGE ? sales.at(-1)?.id : undefined };
  }

  async get(
    partnerId: string,
    saleId: string,
  ): Promise<
    { sale: SaleWithDelivery; items: SaleItemRow[]; journals: SaleJournalBreakdown[] } | undefined
  > {
    const sale = await repo.findById(this.db, saleId);
    if (!sale || sale.partner_id !== partnerId) return undefined;
    return {
      sale,
      items: await repo.items(this.db, sale.id),
      journals: await journalsOfSale(this.db, sale),
    };
  }
}
