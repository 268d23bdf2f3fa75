import type { Queryable } from '../../platform/db/index.ts';

export const SETTLEMENT_STATUSES = ['proposed', 'approved', 'rejected'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

/** A settlement imported from a gateway's report, waiting for (or given) a second operator's decision. */
export interface SettlementRow {
  id: string;
  gateway: string;
  settlement_id: string;
  amount_pesewas: number;
  fee_pesewas: number;
  settled_at: Date;
  status: SettlementStatus;
  proposed_by: string;
  proposed_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  reason: string | null;
}

const COLUMNS =
  'id, gateway, settlement_id, amount_pesewas, fee_pesewas, settled_at, status, proposed_by, proposed_at, decided_by, decided_at, reason';

/** Settlements' maker-checker (settlement_approvals). */
export const settlementsRepository = {
  /** Proposes a settlement; false when it is already proposed or approved (its live unique index). */
  async propose(
    tx: Queryable,
    s: {
      id: string;
      gateway: string;
      settlementId: string;
      amountPesewas: number;
      feePesewas: number;
      settledAt: Date;
      by: string;
      at: Date;
    },
  ): Promise<boolean> {
    const rows = await tx.query(
      `insert into settlement_approvals (id, gateway, settlement_id, amount_pesewas, fee_pesewas, settled_at, status, proposed_by, proposed_at)
       values ($1, $2, $3, $4, $5, $6, 'proposed', $7, $8) on conflict (gateway, settlement_id) where status <> 'rejected' do nothing returning 1`,
      [s.id, s.gateway, s.settlementId, s.amountPesewas, s.feePesewas, s.settledAt, s.by, s.at],
    );
    return rows.length > 0;
  },

  /** Whether the settlement's latest proposal was rejected (a corrected report may then replace it). */
  async rejected(tx: Queryable, gateway: string, settlementId: string): Promise<boolean> {
    const rows = await tx.query<{ status: SettlementStatus }>(
      'select status from settlement_approvals where gateway = $1 and settlement_id = $2 order by proposed_at desc, id desc limit 1',
      [gateway, settlementId],
    );
    return rows[0]?.status === 'rejected';
  },

  async find(db: Queryable, id: string): Promise<SettlementRow | undefined> {
    return (
      await db.query<SettlementRow>(`select ${COLUMNS} from settlement_approvals where id = $1`, [
        id,
      ])
    )[0];
  },

  /** Newest first, optionally of one status and gateway. */
  async list(
    db: Queryable,
    f: { status?: SettlementStatus | undefined; gateway?: string | undefined },
    limit: number,
  ): Promise<SettlementRow[]> {
    return db.query<SettlementRow>(
      `select ${COLUMNS} from settlement_approvals where ($1::text is null or status = $1) and ($2::text is null or gateway = $2) order by proposed_at desc, id desc limit $3`,
      [f.status ?? null, f.gateway ?? null, limit],
    );
  },

  /** Decides a proposed settlement (compare-and-set): undefined when it was no longer proposed. */
  async decide(
    tx: Queryable,
    id: string,
    status: 'approved' | 'rejected',
    by: string,
    at: Date,
    reason: string | null,
  ): Promise<SettlementRow | undefined> {
    const rows = await tx.query<SettlementRow>(
      `update settlement_approvals set status = $2, decided_by = $3, decided_at = $4, reason = $5 where id = $1 and status = 'proposed' returning ${COLUMNS}`,
      [id, status, by, at, reason],
    );
    return rows[0];
  },
};
