import type { Db, Queryable } from '../../../platform/db/index.ts';
import { ledger } from '../../ledger/index.ts';
import { saleMoneyPlace, type MoneyPlace } from '../domain/money-place.ts';
import { refundsRepository as refunds } from '../refunds/repository.ts';
import { journalsOfSale, type SaleJournalBreakdown } from './partner-sales.ts';
import {
  salesRepository as repo,
  type OperatorSaleFilter,
  type SaleItemRow,
  type SaleWithDelivery,
} from './repository.ts';

export type { OperatorSaleFilter };

/** Journals that move a sale's buyer money as a whole (two legs), and what operators read each as. */
export const RECEIPT_TITLES = {
  sale_payment: 'Paid online: held until the delivery is delivered',
  sale_payment_held: 'Payment held for review (another amount than the total)',
  sale_late_payment: 'Late payment (owed back to the buyer)',
  sale_undelivered_refund: 'Failed before delivery: owed back to the buyer',
  sale_refund_paid: 'Refunded to the buyer',
  sale_refund_reversed: 'Refund reversed by the provider: owed to the buyer again',
} as const;

/** Buyer money the ledger moved as a whole: received and held, held for review, owed back, refunded or its refund reversed. */
export interface SaleReceipt {
  journalId: string;
  kind: keyof typeof RECEIPT_TITLES;
  postedAt: Date;
  amount: number;
}

/** One sale as operators see it: every field, its items, where its money is, and each journal the ledger posted for it. */
export interface OperatorSale {
  sale: SaleWithDelivery;
  items: SaleItemRow[];
  money: MoneyPlace;
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
    // A refund attempt's journals are keyed by its reference, the others by the sale.
    const refund = await refunds.find(this.db, sale.id);
    const subjects = [sale.id, ...(refund ? [refund.reference, ...refund.earlier_references] : [])];
    const [items, journals, moved] = await Promise.all([
      repo.items(this.db, sale.id),
      journalsOfSale(this.db, sale),
      ledger.subjectEntries(this.db, subjects, Object.keys(RECEIPT_TITLES)),
    ]);
    // Each such journal has two legs; the credit is where the money went.
    const receipts = moved
      .filter((r) => Number(r.amount_pesewas) > 0)
      .map((r) => ({
        journalId: r.journal_id,
        kind: r.kind as SaleReceipt['kind'],
        postedAt: r.created_at,
        amount: Number(r.amount_pesewas),
      }));
    return { sale, items, money: saleMoneyPlace(sale), journals, receipts };
  }

  /** The references the gateways saw for these sales and refund attempts (reconciliation matches reports by them), by sale or attempt id. */
  async references(ids: readonly string[]): Promise<Map<string, string>> {
    const rows = [
      ...(await repo.references(this.db, ids)),
      ...(await refunds.clientReferences(this.db, ids)),
    ];
    return new Map(rows.map((r) => [r.id, r.client_reference]));
  }

  /** Each of these sales' delivery order (sale id → order id), read in the caller's transaction (payouts' run). */
  async deliveryOrdersOf(q: Queryable, saleIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await repo.deliveryOrdersOf(q, saleIds);
    return new Map(rows.map((r) => [r.id, r.delivery_order_id]));
  }

  /** The vendors whose cash-on-delivery sales these delivery orders carry (same-day payouts follow a courier's handover). */
  async codVendorsOf(orderIds: readonly string[]): Promise<string[]> {
    return (await repo.codVendorsOf(this.db, orderIds)).map((r) => r.vendor_id);
  }
}
