import type { Db, Queryable } from '../../platform/db/index.ts';
import { ledger } from '../ledger/index.ts';
import { payoutFeeJournal } from './domain/journals.ts';
import {
  payoutStatementRepository as repo,
  type PayoutTransferRow,
} from './statement-repository.ts';

/** A payout as reconciliation's statement matching reads it (its reference and its journals' subject are its id). */
export interface PayoutTransfer {
  reference: string;
  subjectId: string;
  what: 'payout';
  amountPesewas: number;
  feePesewas: number | null;
  state: PayoutTransferRow['state'];
}

const asTransfer = (r: PayoutTransferRow): PayoutTransfer => ({
  reference: r.id,
  subjectId: r.id,
  what: 'payout',
  amountPesewas: Number(r.amount_pesewas),
  feePesewas: r.fee_pesewas === null ? null : Number(r.fee_pesewas),
  state: r.state,
});

/**
 * Payouts seen from the transfer provider's statement: what reconciliation matches each line
 * against, and the fee of a paid payout whose answer gave none, booked from the statement as the
 * payout's own `payout_fee` (once: the compare-and-set on its fee, then the ledger's unique (kind, subject)).
 */
export class PayoutStatement {
  constructor(private readonly db: Db) {}

  async byReference(provider: string, references: readonly string[]): Promise<PayoutTransfer[]> {
    return (await repo.byIds(this.db, provider, references)).map(asTransfer);
  }

  /** A payout's journals have its id as subject: the same lookup. */
  bySubject(provider: string, subjectIds: readonly string[]): Promise<PayoutTransfer[]> {
    return this.byReference(provider, subjectIds);
  }

  async bookFee(
    tx: Queryable,
    provider: string,
    reference: string,
    feePesewas: number,
    at: Date,
  ): Promise<boolean> {
    if (!(await repo.setMissingFee(tx, provider, reference, feePesewas))) return false;
    await ledger.postJournal(tx, payoutFeeJournal(reference, provider, feePesewas), at);
    return true;
  }
}
