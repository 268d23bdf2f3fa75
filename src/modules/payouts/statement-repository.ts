import type { Queryable } from '../../platform/db/index.ts';

/** A payout as a transfer statement is matched against it. */
export interface PayoutTransferRow {
  id: string;
  amount_pesewas: number;
  fee_pesewas: number | null;
  /** Where the money stands: sent and open (pending), paid, failed, reversed, or never sent. */
  state: 'pending' | 'paid' | 'failed' | 'reversed' | 'not_sent';
}

// Awaiting approval, rejected and cancelled payouts never reached the provider; created, sending and pending are open.
const COLUMNS = `id, amount_pesewas, fee_pesewas,
  case when status in ('paid', 'failed', 'reversed') then status when status in ('awaiting_approval', 'rejected', 'cancelled') then 'not_sent' else 'pending' end as state`;

/** Payouts' side of reconciling money out (the payouts table only). */
export const payoutStatementRepository = {
  /** The payouts through `provider` with these ids (a payout's id is its transfer reference). */
  async byIds(
    db: Queryable,
    provider: string,
    ids: readonly string[],
  ): Promise<PayoutTransferRow[]> {
    return db.query<PayoutTransferRow>(
      `select ${COLUMNS} from payouts where provider = $1 and id = any($2::text[])`,
      [provider, ids],
    );
  },

  /** Sets the fee of a paid (or since reversed) payout whose answer gave none: once, by compare-and-set. */
  async setMissingFee(
    tx: Queryable,
    provider: string,
    id: string,
    feePesewas: number,
  ): Promise<boolean> {
    const rows = await tx.query(
      `update payouts set fee_pesewas = $3 where provider = $1 and id = $2 and status in ('paid', 'reversed') and fee_pesewas is null returning 1`,
      [provider, id, feePesewas],
    );
    return rows.length > 0;
  },
};
