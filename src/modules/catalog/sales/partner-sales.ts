import type { Db } from '../../../platform/db/index.ts';
import { DELIVERY_REVENUE, ledger, partnerMarkupPayable, partnerMarkupReceivable, PLATFORM_COMMISSION, vendorPayable, vendorReceivable } from '../../ledger/index.ts';
import { salesRepository as repo, type SaleItemRow, type SaleWithDelivery } from './repository.ts';

export const PARTNER_SALES_PAGE = 25;

/** A ledger journal of a sale, as the ledger recorded it, decomposed into the sale's shares (pesewas). */
export interface SaleJournalBreakdown {
  journalId: string;
  kind: 'sale_settlement' | 'sale_refund';
  postedAt: Date;
  /** What the buyer paid (settlement) or is owed back (refund): the clearing or refund account's side. */
  buyerPaid: number;
  deliveryFee: number;
  markup: number;
  vendorShare: number;
  commission: number;
}

/** The settlement and refund journals of a sale, read from the ledger (empty until it settled). */
export async function journalsOfSale(db: Db, sale: SaleWithDelivery): Promise<SaleJournalBreakdown[]> {
  const rows = await ledger.subjectEntries(db, sale.id, ['sale_settlement', 'sale_refund']);
  const out = new Map<string, SaleJournalBreakdown>();
  for (const r of rows) {
    let j = out.get(r.journal_id);
    if (!j) {
      j = { journalId: r.journal_id, kind: r.kind as SaleJournalBreakdown['kind'], postedAt: r.created_at, buyerPaid: 0, deliveryFee: 0, markup: 0, vendorShare: 0, commission: 0 };
      out.set(r.journal_id, j);
    }
    // Shares are credits on settlement and debits on refund; both are shown as positive amounts.
    const sign = j.kind === 'sale_settlement' ? 1 : -1;
    const amount = sign * Number(r.amount_pesewas);
    if (r.account === DELIVERY_REVENUE) j.deliveryFee += amount;
    else if (r.account === PLATFORM_COMMISSION) j.commission += amount;
    else if (r.account === partnerMarkupPayable(sale.partner_id) || r.account === partnerMarkupReceivable(sale.partner_id)) j.markup += amount;
    else if (r.account === vendorPayable(sale.vendor_id) || r.account === vendorReceivable(sale.vendor_id)) j.vendorShare += amount;
    else j.buyerPaid -= amount;
  }
  return [...out.values()];
}

/** A partner's own sales, for the dashboard: read-only, and another partner's sale is never found. */
export class PartnerSales {
  constructor(private readonly db: Db) {}

  /** One page, newest first (keyset on created_at, id), and the cursor of the next page when there is one. */
  async list(partnerId: string, afterId: string | undefined): Promise<{ sales: SaleWithDelivery[]; nextAfter: string | undefined }> {
    const rows = await repo.listForPartner(this.db, partnerId, afterId, PARTNER_SALES_PAGE + 1);
    const sales = rows.slice(0, PARTNER_SALES_PAGE);
    return { sales, nextAfter: rows.length > PARTNER_SALES_PAGE ? sales.at(-1)?.id : undefined };
  }

  async get(partnerId: string, saleId: string): Promise<{ sale: SaleWithDelivery; items: SaleItemRow[]; journals: SaleJournalBreakdown[] } | undefined> {
    const sale = await repo.findById(this.db, saleId);
    if (!sale || sale.partner_id !== partnerId) return undefined;
    return { sale, items: await repo.items(this.db, sale.id), journals: await journalsOfSale(this.db, sale) };
  }
}
