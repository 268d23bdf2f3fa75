import type { Queryable } from '../../platform/db/index.ts';

export interface TopupRow {
  id: string;
  partner_id: string;
  app_id: string;
  client_reference: string;
  amount_pesewas: number;
  gateway: string;
  checkout_id: string | null;
  checkout_url: string | null;
  status: 'initiating' | 'pending' | 'credited' | 'failed';
  credited_pesewas: number | null;
  last_gateway_status: string | null;
  created_at: Date;
}

const TOPUP_COLS =
  'id, partner_id, app_id, client_reference, amount_pesewas, gateway, checkout_id, checkout_url, status, credited_pesewas, last_gateway_status, created_at';

export const walletRepository = {
  async insertTopup(
    db: Queryable,
    t: {
      id: string;
      partnerId: string;
      appId: string;
      clientReference: string;
      amountPesewas: number;
      gateway: string;
    },
  ): Promise<void> {
    await db.query(
      `insert into wallet_topups (id, partner_id, app_id, client_reference, amount_pesewas, gateway, status) values ($1, $2, $3, $4, $5, $6, 'initiating')`,
      [t.id, t.partnerId, t.appId, t.clientReference, t.amountPesewas, t.gateway],
    );
  },

  async setTopupCheckout(
    db: Queryable,
    id: string,
    checkout: { checkoutId: string; checkoutUrl: string } | null,
  ): Promise<void> {
    await db.query(
      `update wallet_topups set checkout_id = $2, checkout_url = $3, status = case when $2::text is null then 'failed' else 'pending' end, updated_at = now()
        where id = $1 and status = 'initiating'`,
      [id, checkout?.checkoutId ?? null, checkout?.checkoutUrl ?? null],
    );
  },

  async findTopup(db: Queryable, clientReference: string): Promise<TopupRow | undefined> {
    return (
      await db.query<TopupRow>(
        `select ${TOPUP_COLS} from wallet_topups where client_reference = $1`,
        [clientReference],
      )
    )[0];
  },

  async noteGatewayStatus(db: Queryable, id: string, raw: string): Promise<void> {
    await db.query(
      'update wallet_topups set last_gateway_status = $2, updated_at = now() where id = $1',
      [id, raw],
    );
  },

  /** Compare-and-set from pending to credited: of racing verifies and callbacks, one wins. */
  async markCredited(
    tx: Queryable,
    id: string,
    credited: number,
    raw: string,
    at: Date,
  ): Promise<boolean> {
    const rows = await tx.query(
      `update wallet_topups set status = 'credited', credited_pesewas = $2, last_gateway_status = $3, credited_at = $4, updated_at = $4
        where id = $1 and status = 'pending' returning id`,
      [id, credited, raw, at],
    );
    return rows.length > 0;
  },
  /** A partner's latest top-ups (those that reached the gateway), newest first. */
  async listTopups(db: Queryable, partnerId: string, limit: number): Promise<TopupRow[]> {
    return db.query<TopupRow>(
      `select ${TOPUP_COLS} from wallet_topups where partner_id = $1 order by created_at desc, id desc limit $2`,
      [partnerId, limit],
    );
  },
};
