import type { Db } from '../../../platform/db/index.ts';
import { ledger } from '../../ledger/index.ts';
import { journalsOfSale, type SaleJournalBreakdown } from './partner-sales.ts';
import { salesRepository as repo, type OperatorSaleFilter, type SaleItemRow, type SaleWithDelivery } from './repository.ts';

export type { OperatorSaleFilter };

/** Buyer money the ledger moved outside the settlement: an amount mismatch held for review, a payment after the sale failed, or a refund paid back. */
export interface SaleReceipt {
  journalId: string;
  kind: 'sale_payment_held' | 'sale_late_payment' | 'sale_refund_paid';
  postedAt: Date;
  amount: number;
}

/** One sale as operators see it: every field, its items, and each journal the ledger posted for it. */
export interface OperatorSale {
  sale: SaleWithDelivery;
  items: SaleItemRow[];
  journals: SaleJournalBreakdown[];
  receipts: SaleReceipt[];
}

/** Every partner's sales for operators (finance): read-only, straight from the sales and ledger tables. */
export class OperatorSales {
  constructor(private readonly db: Db) {}

  /** Up to `limit` sales newest first; ask for one more than a page to learn whether another follows. */
  list(filter: OperatorSaleFilter, limit: number): Promise<SaleWithDelivery[]> {
    return repo.listNewest(this.db, filter, limit);
  }

  async get(saleId: string): Promise<OperatorSale | undefined> {
    const sale = await repo.findById(this.db, saleId);
    if (!sale) return undefined;
    const [items, journals, held] = await Promise.all([
      repo.items(this.db, sale.id),
      journalsOfSale(this.db, sale),
      ledger.subjectEntries(this.db, sale.id, ['sale_payment_held', 'sale_late_payment', 'sale_refund_paid']),
    ]);
    // Each such journal has two legs; the credit is where the money went (suspense, refunds payable, or the clearing a refund left through).
    const receipts = held
      .filter((r) => Number(r.amount_pesewas) > 0)
      .map((r) => ({ journalId: r.journal_id, kind: r.kind as SaleReceipt['kind'], postedAt: r.created_at, amount: Number(r.amount_pesewas) }));
    return { sale, items, journals, receipts };
  }

  /** The references the gateways saw for these sales (reconciliation matches reports by them), by sale id. */
  async references(ids: readonly string[]): Promise<Map<string, string>> {
    return new Map((await repo.references(this.db, ids)).map((r) => [r.id, r.client_reference]));
  }

  /** The vendors whose cash-on-delivery sales these delivery orders carry (same-day payouts follow a courier's handover). */
  async codVendorsOf(orderIds: readonly string[]): Promise<string[]> {
    return (await repo.codVendorsOf(this.db, orderIds)).map((r) => r.vendor_id);
  }
}
