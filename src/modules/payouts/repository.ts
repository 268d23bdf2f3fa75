import type { PayoutDestination } from '../../integrations/transfers/types.ts';
import type { Queryable } from '../../platform/db/index.ts';
import type { PayeeKind } from './domain/destinations.ts';
import { PAYOUT_KINDS } from './domain/journals.ts';

/**
 * Rings after a commit that changed payouts or a run, naming the payees concerned, or `RUNS_KEY`
 * for a run's own state: a payee's screen (a courier's earnings) reads again only for its own key.
 */
export const PAYOUTS_CHANNEL = 'payouts';
export const RUNS_KEY = 'runs';
export function payoutsChanged(q: Queryable, payees: Iterable<string>): void {
  for (const payee of new Set(payees)) q.notify(PAYOUTS_CHANNEL, payee);
}
export const runsChanged = (q: Queryable): void => q.notify(PAYOUTS_CHANNEL, RUNS_KEY);

export type PayoutStatus =
  | 'awaiting_approval'
  | 'created'
  | 'sending'
  | 'pending'
  | 'paid'
  | 'failed'
  | 'reversed'
  | 'rejected'
  | 'cancelled';

/** Whether the provider confirmed a destination belongs to its payee: only verified ones are paid. */
export type DestinationVerification = 'unverified' | 'verified' | 'needs_review';

export interface DestinationRow {
  payee: string;
  kind: 'mobile_money' | 'bank';
  network: string | null;
  number: string;
  bank_code: string | null;
  name: string;
  resolved_name: string | null;
  changed_at: Date;
  changed_by: string;
  /** Raised by each replacement; a payout records the version it was created for. */
  version: number;
  verification: DestinationVerification;
  /** The provider's recipient for this destination, once registered. */
  recipient_code: string | null;
  /** The operators who set it (a change's proposer and approver); empty when a partner's member did. */
  set_by: string[];
  /** Why it needs review (the provider's name differs, or it could not resolve or refused the account). */
  review_reason: string | null;
  /** The operator who accepted it after review. */
  reviewed_by: string | null;
}

export interface PayoutRow {
  id: string;
  run_id: string;
  payee: string;
  account: string;
  amount_pesewas: number;
  provider: string;
  destination: PayoutDestination;
  /** The destination's version this payout was created for: never sent once the destination is replaced. */
  destination_version: number | null;
  status: PayoutStatus;
  approval_reasons: string[];
  created_by: string;
  approved_by: string | null;
  provider_reference: string | null;
  fee_pesewas: number | null;
  /** The transfer fee withheld from the payee when it bears it (PAYOUT_FEE_BEARER): its lines less deductions less this is the amount; 0 otherwise. */
  payee_fee_pesewas: number;
  failure_reason: string | null;
  attempts: number;
  sending_since: Date | null;
  /** Cancelled (its destination was replaced before it was sent): the payout made in its place. */
  replaced_by: string | null;
  /** When the payouts job next looks at it (created, sending or pending); null in every other state. */
  next_check_at: Date | null;
  /** How often the job looked since its last state change (its backoff). */
  checks: number;
  created_at: Date;
  updated_at: Date;
}

export type PayoutSchedule = 'daily' | 'same_day';

export interface RunRow {
  id: string;
  trigger: 'schedule' | 'manual' | 'handover';
  started_by: string;
  cutoff: Date;
  schedule_day: string | null;
  /** The courier cash handover a same-day run followed (one run per handover). */
  handover_id: string | null;
  /** A handover's run covers only these payees; null: every payee. */
  payees: string[] | null;
  created_at: Date;
}

export interface LineRow {
  journal_id: string;
  kind: string;
  subject_id: string;
  amount_pesewas: number;
  /** The payee's payable, or its receivable (a deduction: a return after the sale was paid out). */
  account: string;
}

/** A payee's uncovered money: on its payable, split at the hold's cut-off, and on its receivable (negative, deducted at once). */
export interface PayableRow {
  payee: string;
  available_pesewas: number;
  pending_pesewas: number;
  receivable_pesewas: number;
}

// The payees' accounts' entries are read straight from the ledger's tables (read-only, like the
// catalog's join of delivery orders): the run must pick exactly the entries no live payout covers,
// in one statement, which the ledger's public face cannot express without knowing payout lines.
const PAYEE = `(case when e.account like 'vendor_%' then 'vendor:' when e.account like 'courier_%' then 'courier:' else 'partner:' end) || split_part(e.account, ':', 2)`;
const RECEIVABLE = `e.account like '%_receivable:%'`;
/** A payable's credit still within the hold ($2 is the cut-off): pending. */
const HELD = `(not ${RECEIVABLE} and e.amount_pesewas > 0 and e.created_at > $2)`;
const UNCOVERED = `
  from ledger_entries e join ledger_journals j on j.id = e.journal_id
 where (e.account like 'vendor_payable:%' or e.account like 'partner_markup_payable:%' or e.account like 'vendor_receivable:%' or e.account like 'partner_markup_receivable:%'
        or e.account like 'courier_payable:%' or e.account like 'courier_receivable:%')
   and j.kind <> all($1::text[])
   and not exists (select 1 from payout_lines l where l.payee = ${PAYEE} and l.journal_id = e.journal_id and not l.released)`;

export const DESTINATION_COLUMNS =
  'payee, kind, network, number, bank_code, name, resolved_name, changed_at, changed_by, version, verification, recipient_code, set_by, review_reason, reviewed_by';

export const payoutsRepository = {
  /** Sets a payee's destination: a new version, unverified until the provider has checked it. */
  async saveDestination(
    tx: Queryable,
    kind: PayeeKind,
    id: string,
    d: PayoutDestination,
    who: { resolvedName: string | null; by: string; setBy: string[] },
    at: Date,
  ): Promise<DestinationRow> {
    const number = d.kind === 'mobile_money' ? d.number : d.accountNumber;
    const rows = await tx.query<DestinationRow>(
      `insert into payout_destinations (payee, vendor_id, partner_id, courier_id, kind, network, number, bank_code, name, resolved_name, changed_at, changed_by, set_by, verification)
       values ($1, $2, $3, $13, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'unverified')
       on conflict (payee) do update set kind = excluded.kind, network = excluded.network, number = excluded.number, bank_code = excluded.bank_code,
         name = excluded.name, resolved_name = excluded.resolved_name, changed_at = excluded.changed_at, changed_by = excluded.changed_by, set_by = excluded.set_by,
         version = payout_destinations.version + 1, verification = 'unverified', recipient_code = null, review_reason = null, reviewed_by = null
       returning ${DESTINATION_COLUMNS}`,
      [
        `${kind}:${id}`,
        kind === 'vendor' ? id : null,
        kind === 'partner' ? id : null,
        d.kind,
        d.kind === 'mobile_money' ? d.network : null,
        number,
        d.kind === 'bank' ? d.bankCode : null,
        d.name,
        who.resolvedName,
        at,
        who.by,
        who.setBy,
        kind === 'courier' ? id : null,
      ],
    );
    return rows[0]!;
  },

  async destination(db: Queryable, payee: string): Promise<DestinationRow | undefined> {
    return (
      await db.query<DestinationRow>(
        `select ${DESTINATION_COLUMNS} from payout_destinations where payee = $1`,
        [payee],
      )
    )[0];
  },

  async setSchedule(
    tx: Queryable,
    vendorId: string,
    schedule: PayoutSchedule,
    by: string,
    at: Date,
  ): Promise<void> {
    await tx.query(
      `insert into payout_schedules (vendor_id, schedule, changed_at, changed_by) values ($1, $2, $3, $4)
       on conflict (vendor_id) do update set schedule = excluded.schedule, changed_at = excluded.changed_at, changed_by = excluded.changed_by`,
      [vendorId, schedule, at, by],
    );
  },

  async schedule(db: Queryable, vendorId: string): Promise<PayoutSchedule> {
    return (
      (
        await db.query<{ schedule: PayoutSchedule }>(
          'select schedule from payout_schedules where vendor_id = $1',
          [vendorId],
        )
      )[0]?.schedule ?? 'daily'
    );
  },

  /**
   * The orders whose cash the courier collected within the two days before `at` (a handover may
   * bring it in; older cash is past the daily run's hold and paid by it). A read-only look at the
   * ledger's tables: the collected journal names the order.
   */
  async ordersCollectedBy(db: Queryable, courierId: string, at: Date): Promise<string[]> {
    const rows = await db.query<{ order_id: string }>(
      `select distinct j.subject_id as order_id from ledger_entries e join ledger_journals j on j.id = e.journal_id
        where e.account = $1 and j.kind = 'courier_cash_collected' and e.created_at <= $2 and e.created_at > $2 - interval '2 days'`,
      [`courier_cash:${courierId}`, at],
    );
    return rows.map((r) => r.order_id);
  },

  /** Those of these vendors paid the same day, in id order. */
  async sameDayAmong(db: Queryable, vendorIds: readonly string[]): Promise<string[]> {
    const rows = await db.query<{ vendor_id: string }>(
      `select vendor_id from payout_schedules where schedule = 'same_day' and vendor_id = any($1::text[]) order by vendor_id`,
      [vendorIds],
    );
    return rows.map((r) => r.vendor_id);
  },

  /**
   * Every payee's uncovered money (or only that on `accounts`): on its payable, what settled at or
   * before `cutoff` is available, later is pending; a debit of its payable (a share taken back) and
   * its receivable are deducted from what is available at once: the hold delays money owed, never money taken back.
   */
  async payables(
    db: Queryable,
    cutoff: Date,
    accounts?: string[],
    after: string | null = null,
  ): Promise<PayableRow[]> {
    return db.query<PayableRow>(
      `select ${PAYEE} as payee,
              coalesce(sum(e.amount_pesewas) filter (where not ${HELD}), 0)::bigint as available_pesewas,
              coalesce(sum(e.amount_pesewas) filter (where ${HELD}), 0)::bigint as pending_pesewas,
              coalesce(sum(e.amount_pesewas) filter (where ${RECEIVABLE}), 0)::bigint as receivable_pesewas
       ${UNCOVERED} and ($3::text[] is null or e.account = any($3::text[])) and ($4::text is null or ${PAYEE} > $4)
        group by 1 order by 1`,
      [PAYOUT_KINDS, cutoff, accounts ?? null, after],
    );
  },

  /** The sum of a payee's entries (payable and receivable) other than the payouts' own journals: what it earned, net of returns. */
  async earned(db: Queryable, accounts: string[]): Promise<number> {
    const rows = await db.query<{ n: number }>(
      `select coalesce(sum(e.amount_pesewas), 0)::bigint as n from ledger_entries e join ledger_journals j on j.id = e.journal_id
        where e.account = any($2::text[]) and j.kind <> all($1::text[])`,
      [PAYOUT_KINDS, accounts],
    );
    return Number(rows[0]!.n);
  },

  /** A new run, `creating` (its worker makes its payouts); false when its day or handover has one already. */
  async insertRun(tx: Queryable, run: RunRow): Promise<boolean> {
    const rows = await tx.query(
      `insert into payout_runs (id, trigger, started_by, cutoff, schedule_day, handover_id, payees, created_at, status) values ($1, $2, $3, $4, $5, $6, $7, $8, 'creating')
       on conflict do nothing returning id`,
      [
        run.id,
        run.trigger,
        run.started_by,
        run.cutoff,
        run.schedule_day,
        run.handover_id,
        run.payees,
        run.created_at,
      ],
    );
    if (rows.length > 0) runsChanged(tx);
    return rows.length > 0;
  },

  async insertPayout(tx: Queryable, p: PayoutRow, lines: LineRow[]): Promise<void> {
    await tx.query(
      `insert into payouts (id, run_id, payee, account, amount_pesewas, payee_fee_pesewas, provider, destination, destination_version, status, approval_reasons, created_by, next_check_at, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $14, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
      [
        p.id,
        p.run_id,
        p.payee,
        p.account,
        p.amount_pesewas,
        p.provider,
        JSON.stringify(p.destination),
        p.destination_version,
        p.status,
        p.approval_reasons,
        p.created_by,
        p.next_check_at,
        p.created_at,
        p.payee_fee_pesewas,
      ],
    );
    const values = lines
      .map(
        (_, i) =>
          `($1, $2, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5}, $${i * 5 + 6}, $${i * 5 + 7})`,
      )
      .join(', ');
    await tx.query(
      `insert into payout_lines (payout_id, payee, journal_id, kind, subject_id, amount_pesewas, account) values ${values}`,
      [
        p.id,
        p.payee,
        ...lines.flatMap((l) => [l.journal_id, l.kind, l.subject_id, l.amount_pesewas, l.account]),
      ],
    );
  },

  /**
   * Moves a payout from one of `from` to `to` (compare-and-set); undefined when it was not in one of them.
   * Into an open state (created, sending, pending) its next check is `next_check_at` (else kept); into any other, none.
   */
  async transition(
    tx: Queryable,
    id: string,
    from: readonly PayoutStatus[],
    to: PayoutStatus,
    at: Date,
    set: Partial<
      Pick<
        PayoutRow,
        'provider_reference' | 'fee_pesewas' | 'failure_reason' | 'approved_by' | 'next_check_at'
      >
    > = {},
  ): Promise<PayoutRow | undefined> {
    const rows = await tx.query<PayoutRow>(
      `update payouts set status = $3, updated_at = $4,
              attempts = attempts + (case when $3 = 'sending' then 1 else 0 end),
              sending_since = case when $3 = 'sending' then $4 else sending_since end,
              provider_reference = coalesce($5, provider_reference), fee_pesewas = coalesce($6, fee_pesewas),
              failure_reason = coalesce($7, failure_reason), approved_by = coalesce($8, approved_by),
              next_check_at = case when $3 in ('created', 'sending', 'pending') then coalesce($9, next_check_at) end, checks = 0
        where id = $1 and status = any($2::text[]) returning *`,
      [
        id,
        from,
        to,
        at,
        set.provider_reference ?? null,
        set.fee_pesewas ?? null,
        set.failure_reason ?? null,
        set.approved_by ?? null,
        set.next_check_at ?? null,
      ],
    );
    if (rows[0]) payoutsChanged(tx, [rows[0].payee]);
    return rows[0];
  },

  /** Claims a `sending` payout for another send of the same reference, unless another instance just did (its send time moved). */
  async reclaim(
    tx: Queryable,
    id: string,
    sendingSince: Date,
    at: Date,
    nextCheckAt: Date,
  ): Promise<PayoutRow | undefined> {
    const rows = await tx.query<PayoutRow>(
      `update payouts set attempts = attempts + 1, sending_since = $3, updated_at = $3, next_check_at = $4 where id = $1 and status = 'sending' and sending_since = $2 returning *`,
      [id, sendingSince, at, nextCheckAt],
    );
    return rows[0];
  },

  /** The payout's lines are owed again (it failed, was reversed or rejected). */
  async releaseLines(tx: Queryable, payoutId: string): Promise<void> {
    await tx.query('update payout_lines set released = true where payout_id = $1', [payoutId]);
  },

  async find(db: Queryable, id: string): Promise<PayoutRow | undefined> {
    return (await db.query<PayoutRow>('select * from payouts where id = $1', [id]))[0];
  },

  async lines(db: Queryable, payoutId: string): Promise<LineRow[]> {
    return db.query<LineRow>(
      'select l.journal_id, l.kind, l.subject_id, l.amount_pesewas, coalesce(l.account, p.account) as account from payout_lines l join payouts p on p.id = l.payout_id where l.payout_id = $1 order by l.journal_id',
      [payoutId],
    );
  },

  async list(
    db: Queryable,
    f: {
      status?: PayoutStatus | undefined;
      payee?: string | undefined;
      runId?: string | undefined;
      limit: number;
    },
  ): Promise<PayoutRow[]> {
    return db.query<PayoutRow>(
      `select * from payouts where ($1::text is null or status = $1) and ($2::text is null or payee = $2) and ($3::text is null or run_id = $3)
        order by created_at desc, id desc limit $4`,
      [f.status ?? null, f.payee ?? null, f.runId ?? null, f.limit],
    );
  },

  /** One payee's payouts, newest first, after the payout `after` (keyset on created_at, id); undefined when `after` is not the payee's. */
  async pageForPayee(
    db: Queryable,
    f: {
      payee: string;
      status?: PayoutStatus | undefined;
      after?: string | undefined;
      limit: number;
    },
  ): Promise<PayoutRow[] | undefined> {
    if (
      f.after !== undefined &&
      !(await db.query('select 1 from payouts where id = $1 and payee = $2', [f.after, f.payee]))
        .length
    )
      return undefined;
    return db.query<PayoutRow>(
      `select * from payouts where payee = $1 and ($2::text is null or status = $2)
          and ($3::text is null or (created_at, id) < (select created_at, id from payouts where id = $3))
        order by created_at desc, id desc limit $4`,
      [f.payee, f.status ?? null, f.after ?? null, f.limit],
    );
  },

  async paidOut(db: Queryable, payee: string): Promise<number> {
    return Number(
      (
        await db.query<{ n: number }>(
          "select coalesce(sum(amount_pesewas), 0)::bigint as n from payouts where payee = $1 and status = 'paid'",
          [payee],
        )
      )[0]!.n,
    );
  },

  async runs(
    db: Queryable,
    limit: number,
  ): Promise<Array<RunRow & { payouts: number; total_pesewas: number }>> {
    return db.query(
      `select r.*, to_char(r.schedule_day, 'YYYY-MM-DD') as schedule_day, count(p.id)::int as payouts, coalesce(sum(p.amount_pesewas), 0)::bigint as total_pesewas
         from payout_runs r left join payouts p on p.run_id = r.id group by r.id order by r.created_at desc, r.id desc limit $1`,
      [limit],
    );
  },
};
