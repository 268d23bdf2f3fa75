import type { PayoutDestination } from '../../../integrations/transfers/types.ts';
import type { Queryable } from '../../../platform/db/index.ts';

export const REFUND_STATUSES = [
  'pending',
  'processing',
  'succeeded',
  'failed',
  'reversed',
] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
export type RefundMethod = 'gateway_refund' | 'mobile_money';

export interface RefundRow {
  sale_id: string;
  reference: string;
  amount_pesewas: number;
  method: RefundMethod;
  provider: string;
  status: RefundStatus;
  destination: PayoutDestination | null;
  attempts: number;
  provider_reference: string | null;
  fee_pesewas: number | null;
  failure_reason: string | null;
  processing_since: Date | null;
  refunded_at: Date | null;
  /** When the provider's reversal of this attempt, after it had succeeded, was applied. */
  reversed_at: Date | null;
  /** A succeeded refund is asked about again (has it been reversed?) at this time; null once no longer watched. */
  next_check_at: Date | null;
  /** The references of earlier attempts (a retry takes a new one): their journals are keyed by them. */
  earlier_references: string[];
  created_at: Date;
  updated_at: Date;
}

/** A refund with what an operator needs to see of its sale. */
export interface RefundListRow extends RefundRow {
  sale_reference: string;
  partner_id: string;
  environment: string;
  buyer_name: string;
  buyer_phone: string;
}

const COLS = `r.sale_id, r.reference, r.amount_pesewas::int as amount_pesewas, r.method, r.provider, r.status, r.destination, r.attempts, r.provider_reference,
  r.fee_pesewas::int as fee_pesewas, r.failure_reason, r.processing_since, r.refunded_at, r.reversed_at, r.next_check_at, r.earlier_references, r.created_at, r.updated_at`;

export interface RefundChange {
  provider_reference?: string | null;
  fee_pesewas?: number | null;
  failure_reason?: string | null;
  destination?: PayoutDestination;
  /** A new attempt: a fresh reference (the failed or reversed one is never sent again); the old one joins earlier_references. */
  reference?: string;
  /** When a succeeded refund is next asked about a reversal. */
  next_check_at?: Date;
}

export const refundsRepository = {
  /** The sale's refund, once: a second insert (another worker, a repeated tick) is a no-op. */
  async create(
    tx: Queryable,
    r: Pick<RefundRow, 'sale_id' | 'reference' | 'amount_pesewas' | 'method' | 'provider'>,
    at: Date,
  ): Promise<RefundRow | undefined> {
    const rows = await tx.query<RefundRow>(
      `insert into sale_refunds as r (sale_id, reference, amount_pesewas, method, provider, status, created_at, updated_at)
       values ($1, $2, $3, $4, $5, 'pending', $6, $6) on conflict (sale_id) do nothing returning ${COLS}`,
      [r.sale_id, r.reference, r.amount_pesewas, r.method, r.provider, at],
    );
    return rows[0];
  },

  async find(db: Queryable, saleId: string): Promise<RefundRow | undefined> {
    return (
      await db.query<RefundRow>(`select ${COLS} from sale_refunds r where r.sale_id = $1`, [saleId])
    )[0];
  },

  /**
   * Compare-and-set: moves the refund from one of `from` to `to`, or answers undefined when another
   * worker (or an earlier answer) moved it first. Entering `processing` stamps when, and counts the
   * attempt; `attempt` names the reference the caller's answer is about (an answer about an earlier
   * attempt changes nothing). Leaving `succeeded` ends the reversal watch.
   */
  async transition(
    tx: Queryable,
    saleId: string,
    from: readonly RefundStatus[],
    to: RefundStatus,
    at: Date,
    set: RefundChange = {},
    attempt?: string,
  ): Promise<RefundRow | undefined> {
    const rows = await tx.query<RefundRow>(
      `update sale_refunds as r set status = $3, updated_at = $4,
              processing_since = case when $3 = 'processing' and r.status <> 'processing' then $4 else r.processing_since end,
              attempts = r.attempts + case when $3 = 'processing' and r.status <> 'processing' then 1 else 0 end,
              refunded_at = case when $3 = 'succeeded' then $4 when $3 = 'pending' then null else r.refunded_at end,
              reversed_at = case when $3 = 'reversed' then $4 when $3 = 'pending' then null else r.reversed_at end,
              next_check_at = case when $3 = 'succeeded' then $10::timestamptz else null end,
              provider_reference = coalesce($5, r.provider_reference),
              fee_pesewas = coalesce($6, r.fee_pesewas),
              failure_reason = case when $3 in ('failed', 'reversed') then $7 when $3 = 'pending' then null else r.failure_reason end,
              destination = coalesce($8::jsonb, r.destination),
              earlier_references = case when $9::text is null then r.earlier_references else array_append(r.earlier_references, r.reference) end,
              reference = coalesce($9, r.reference)
        where r.sale_id = $1 and r.status = any($2::text[]) and ($11::text is null or r.reference = $11) returning ${COLS}`,
      [
        saleId,
        from,
        to,
        at,
        set.provider_reference ?? null,
        set.fee_pesewas ?? null,
        set.failure_reason ?? null,
        set.destination ? JSON.stringify(set.destination) : null,
        set.reference ?? null,
        set.next_check_at ?? null,
        attempt ?? null,
      ],
    );
    return rows[0];
  },

  /** A `processing` refund whose call left no answer, claimed again for a resend under the same reference. */
  async reclaim(
    tx: Queryable,
    saleId: string,
    since: Date,
    at: Date,
  ): Promise<RefundRow | undefined> {
    const rows = await tx.query<RefundRow>(
      `update sale_refunds as r set processing_since = $3, attempts = r.attempts + 1, updated_at = $3
        where r.sale_id = $1 and r.status = 'processing' and r.processing_since = $2 returning ${COLS}`,
      [saleId, since, at],
    );
    return rows[0];
  },

  /** Succeeded refunds whose reversal check is due, the longest waiting first. */
  async dueChecks(db: Queryable, now: Date, limit: number): Promise<RefundRow[]> {
    return db.query<RefundRow>(
      `select ${COLS} from sale_refunds r where r.status = 'succeeded' and r.next_check_at <= $1 order by r.next_check_at, r.sale_id limit $2`,
      [now, limit],
    );
  },

  /** The next reversal check of a succeeded attempt, or none (null: past the watch window). */
  async scheduleCheck(
    db: Queryable,
    saleId: string,
    reference: string,
    next: Date | null,
  ): Promise<void> {
    await db.query(
      `update sale_refunds set next_check_at = $3 where sale_id = $1 and reference = $2 and status = 'succeeded'`,
      [saleId, reference, next],
    );
  },

  async findByReference(db: Queryable, reference: string): Promise<RefundRow | undefined> {
    return (
      await db.query<RefundRow>(`select ${COLS} from sale_refunds r where r.reference = $1`, [
        reference,
      ])
    )[0];
  },

  /** Every attempt reference of these refunds' attempts that is one of `ids`, with its sale's gateway reference. */
  async clientReferences(
    db: Queryable,
    ids: readonly string[],
  ): Promise<Array<{ id: string; client_reference: string }>> {
    return db.query(
      `select x.ref as id, s.client_reference from sale_refunds r join sales s on s.id = r.sale_id
         cross join lateral unnest(array_append(r.earlier_references, r.reference)) as x(ref)
        where x.ref = any($1::text[])`,
      [ids],
    );
  },

  /** Prepaid sales owed money back that have no refund yet. */
  async dueSales(db: Queryable, limit: number): Promise<string[]> {
    const rows = await db.query<{ id: string }>(
      `select s.id from sales s where s.payment_status = 'refund_due' and not exists (select 1 from sale_refunds r where r.sale_id = s.id) order by s.updated_at limit $1`,
      [limit],
    );
    return rows.map((r) => r.id);
  },

  /** Refunds ready to send (pending with somewhere to send), and those processing since before `before`. */
  async open(db: Queryable, before: Date, limit: number): Promise<RefundRow[]> {
    return db.query<RefundRow>(
      `select ${COLS} from sale_refunds r
        where (r.status = 'pending' and (r.method = 'gateway_refund' or r.destination is not null)) or (r.status = 'processing' and r.processing_since < $1)
        order by r.updated_at limit $2`,
      [before, limit],
    );
  },

  /** Newest first, optionally one status; `beforeId` is the last refund of the previous page. */
  async list(
    db: Queryable,
    f: { status?: RefundStatus | undefined; beforeId?: string | undefined },
    limit: number,
  ): Promise<RefundListRow[]> {
    return db.query<RefundListRow>(
      `select ${COLS}, s.reference as sale_reference, s.partner_id, s.environment, s.buyer_name, s.buyer_phone
         from sale_refunds r join sales s on s.id = r.sale_id
        where ($1::text is null or r.status = $1)
          and ($2::text is null or (r.created_at, r.sale_id) < (select b.created_at, b.sale_id from sale_refunds b where b.sale_id = $2))
        order by r.created_at desc, r.sale_id desc limit $3`,
      [f.status ?? null, f.beforeId ?? null, limit],
    );
  },
};
