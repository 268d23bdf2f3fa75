import type { Queryable } from '../../../platform/db/index.ts';

/** A buyer refund sent by mobile money transfer, as a transfer statement is matched against it. */
export interface RefundTransferRow {
  sale_id: string;
  reference: string;
  amount_pesewas: number;
  fee_pesewas: number | null;
  /** Where the money stands: not sent yet (pending), sent and open (processing), paid, failed, or reversed. */
  state: 'pending' | 'paid' | 'failed' | 'reversed' | 'not_sent';
}

const COLUMNS = `sale_id, reference, amount_pesewas, fee_pesewas,
  case status when 'succeeded' then 'paid' when 'pending' then 'not_sent' when 'processing' then 'pending' else status end as state`;

/** Buyer refunds' side of reconciling money out (the sale_refunds table only); refunds through a gateway are not transfers. */
export const refundStatementRepository = {
  async byReferences(
    db: Queryable,
    provider: string,
    references: readonly string[],
  ): Promise<RefundTransferRow[]> {
    return db.query<RefundTransferRow>(
      `select ${COLUMNS} from sale_refunds where method = 'mobile_money' and provider = $1 and reference = any($2::text[])`,
      [provider, references],
    );
  },

  /** A refund's journals have its sale as subject. */
  async bySales(
    db: Queryable,
    provider: string,
    saleIds: readonly string[],
  ): Promise<RefundTransferRow[]> {
    return db.query<RefundTransferRow>(
      `select ${COLUMNS} from sale_refunds where method = 'mobile_money' and provider = $1 and sale_id = any($2::text[])`,
      [provider, saleIds],
    );
  },

  /** Sets the fee of a succeeded refund whose answer gave none, by compare-and-set: the sale, or undefined. */
  async setMissingFee(
    tx: Queryable,
    provider: string,
    reference: string,
    feePesewas: number,
  ): Promise<string | undefined> {
    const rows = await tx.query<{ sale_id: string }>(
      `update sale_refunds set fee_pesewas = $3 where method = 'mobile_money' and provider = $1 and reference = $2 and status = 'succeeded' and fee_pesewas is null returning sale_id`,
      [provider, reference, feePesewas],
    );
    return rows[0]?.sale_id;
  },
};
