import type { Db, Queryable } from '../../../platform/db/index.ts';
import { ledger } from '../../ledger/index.ts';
import { saleRefundFeeJournal } from '../domain/journals.ts';
import {
  refundStatementRepository as repo,
  type RefundTransferRow,
} from './statement-repository.ts';

/** A buyer refund as reconciliation's statement matching reads it (its journals' subject is its sale). */
export interface RefundTransfer {
  reference: string;
  subjectId: string;
  what: 'buyer refund';
  amountPesewas: number;
  feePesewas: number | null;
  state: RefundTransferRow['state'];
}

const asTransfer = (r: RefundTransferRow): RefundTransfer => ({
  reference: r.reference,
  subjectId: r.sale_id,
  what: 'buyer refund',
  amountPesewas: Number(r.amount_pesewas),
  feePesewas: r.fee_pesewas === null ? null : Number(r.fee_pesewas),
  state: r.state,
});

/**
 * Buyer refunds by mobile money seen from the transfer provider's statement: what reconciliation
 * matches each line against, and the fee of a succeeded refund whose answer gave none, booked from
 * the statement as the sale's own `sale_refund_fee` (once: the compare-and-set on the refund's fee,
 * then the ledger's unique (kind, subject)).
 */
export class RefundStatement {
  constructor(private readonly db: Db) {}

  async byReference(provider: string, references: readonly string[]): Promise<RefundTransfer[]> {
    return (await repo.byReferences(this.db, provider, references)).map(asTransfer);
  }

  async bySubject(provider: string, saleIds: readonly string[]): Promise<RefundTransfer[]> {
    return (await repo.bySales(this.db, provider, saleIds)).map(asTransfer);
  }

  async bookFee(
    tx: Queryable,
    provider: string,
    reference: string,
    feePesewas: number,
    at: Date,
  ): Promise<boolean> {
    const saleId = await repo.setMissingFee(tx, provider, reference, feePesewas);
    if (!saleId) return false;
    await ledger.postJournal(tx, saleRefundFeeJournal(saleId, provider, feePesewas), at);
    return true;
  }
}
