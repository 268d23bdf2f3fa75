import type { Queryable } from '../../platform/db/index.ts';
import { PAYOUT_KINDS } from './domain/journals.ts';
import {
  DESTINATION_COLUMNS,
  payoutsChanged,
  runsChanged,
  payoutsRepository as repo,
  type DestinationRow,
  type LineRow,
  type PayableRow,
  type PayoutRow,
  type RunRow,
} from './repository.ts';

/** A run with what its worker keeps on it: where creation stopped and what it skipped. */
export interface RunState extends RunRow {
  status: 'creating' | 'sending' | 'done';
  payee_cursor: string | null;
  lease_until: Date | null;
  payees_owed: number;
  without_destination: string[];
  unverified_destination: string[];
  finished_at: Date | null;
}

/** A run's payouts counted by status (cancelled ones, replaced in the same run, left out). */
export type RunCounts = Partial<Record<PayoutRow['status'], number>>;

/** SQL only: a run's batches (set-based: a statement per batch, never one per payee), its lease and its progress. */
export const runRepository = {
  /** The payees after `cursor` (payee order) with uncovered money, their balances at `cutoff`. */
  owedAfter(
    db: Queryable,
    cutoff: Date,
    cursor: string | null,
    accounts?: string[],
  ): Promise<PayableRow[]> {
    return repo.payables(db, cutoff, accounts, cursor);
  },

  async destinations(db: Queryable, payees: readonly string[]): Promise<DestinationRow[]> {
    return db.query<DestinationRow>(
      `select ${DESTINATION_COLUMNS} from payout_destinations where payee = any($1::text[])`,
      [payees],
    );
  },

  /** Locks these accounts until the transaction ends (in one order, so two batches never deadlock), as ledger.lockAccount does one. */
  async lockAccounts(tx: Queryable, accounts: readonly string[]): Promise<void> {
    await tx.query(
      'select count(pg_advisory_xact_lock(hashtext(a)::bigint))::int as locked from (select unnest($1::text[]) as a order by 1) as s',
      [accounts],
    );
  },

  /**
   * The remittance lines of many payees at once (as one payee's: the uncovered credits of its payable
   * settled at or before `cutoff`, and every uncovered debit of its payable and entry of its receivable).
   * Each payee's accounts are probed through the entries' account index and each entry's journal by its
   * key: the plan never reads the whole ledger, however much a repeated run has added to it.
   */
  async linesOf(
    tx: Queryable,
    payees: ReadonlyArray<{ payee: string; payable: string; receivable: string }>,
    cutoff: Date,
  ): Promise<Array<LineRow & { payee: string }>> {
    return tx.query(
      `select x.payee, e.journal_id, j.kind, j.subject_id, e.amount_pesewas, e.account
         from unnest($2::text[], $3::text[], $4::text[]) as x(payee, payable, receivable)
         join lateral (select e.* from ledger_entries e where e.account = x.payable and (e.created_at <= $1 or e.amount_pesewas < 0)
                       union all select e.* from ledger_entries e where e.account = x.receivable) e on true
         join ledger_journals j on j.id = e.journal_id
        where j.kind <> all($5::text[])
          and not exists (select 1 from payout_lines l where l.payee = x.payee and l.journal_id = e.journal_id and not l.released)
        order by x.payee, e.created_at, e.journal_id`,
      [
        cutoff,
        payees.map((p) => p.payee),
        payees.map((p) => p.payable),
        payees.map((p) => p.receivable),
        PAYOUT_KINDS,
      ],
    );
  },

  /** Inserts a batch of payouts and their lines, two statements. */
  async insertPayouts(
    tx: Queryable,
    payouts: ReadonlyArray<{ payout: PayoutRow; lines: LineRow[] }>,
  ): Promise<void> {
    const ps = payouts.map((x) => x.payout);
    await tx.query(
      `insert into payouts (id, run_id, payee, account, amount_pesewas, payee_fee_pesewas, provider, destination, destination_version, status, approval_reasons, created_by,
              next_check_at, created_at, updated_at)
       select id, run_id, payee, account, amount, payee_fee, provider, destination, version, status, string_to_array(reasons, ','), created_by, next_check_at, $11, $11
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::jsonb[], $8::int[], $9::text[], $10::text[], $12::text[], $13::timestamptz[], $14::bigint[])
              as p(id, run_id, payee, account, amount, provider, destination, version, status, reasons, created_by, next_check_at, payee_fee)`,
      [
        ps.map((p) => p.id),
        ps.map((p) => p.run_id),
        ps.map((p) => p.payee),
        ps.map((p) => p.account),
        ps.map((p) => p.amount_pesewas),
        ps.map((p) => p.provider),
        ps.map((p) => JSON.stringify(p.destination)),
        ps.map((p) => p.destination_version),
        ps.map((p) => p.status),
        ps.map((p) => p.approval_reasons.join(',')),
        ps[0]?.created_at,
        ps.map((p) => p.created_by),
        ps.map((p) => p.next_check_at),
        ps.map((p) => p.payee_fee_pesewas),
      ],
    );
    const lines = payouts.flatMap((x) =>
      x.lines.map((l) => ({ ...l, payout: x.payout.id, payee: x.payout.payee })),
    );
    await tx.query(
      `insert into payout_lines (payout_id, payee, journal_id, kind, subject_id, amount_pesewas, account)
       select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[])`,
      [
        lines.map((l) => l.payout),
        lines.map((l) => l.payee),
        lines.map((l) => l.journal_id),
        lines.map((l) => l.kind),
        lines.map((l) => l.subject_id),
        lines.map((l) => l.amount_pesewas),
        lines.map((l) => l.account),
      ],
    );
    payoutsChanged(
      tx,
      ps.map((p) => p.payee),
    );
  },

  /** Records a committed batch on its run: where the next one starts and what it skipped. */
  async advance(
    tx: Queryable,
    runId: string,
    b: { cursor: string; owed: number; withoutDestination: string[]; unverified: string[] },
  ): Promise<void> {
    await tx.query(
      `update payout_runs set payee_cursor = $2, payees_owed = payees_owed + $3, without_destination = without_destination || $4::text[],
              unverified_destination = unverified_destination || $5::text[] where id = $1`,
      [runId, b.cursor, b.owed, b.withoutDestination, b.unverified],
    );
  },

  async setStatus(
    tx: Queryable,
    runId: string,
    status: RunState['status'],
    at: Date,
  ): Promise<void> {
    await tx.query(
      `update payout_runs set status = $2, finished_at = case when $2 = 'done' then $3::timestamptz end, lease_until = case when $2 = 'done' then null else lease_until end where id = $1`,
      [runId, status, at],
    );
    runsChanged(tx);
  },

  /**
   * Takes the run (a given one, or the oldest unfinished) for `seconds` unless another worker holds it:
   * the lease is renewed at each batch, so a crashed worker's run is taken over once its lease passes.
   */
  async lease(
    db: Queryable,
    runId: string | undefined,
    now: Date,
    seconds: number,
  ): Promise<RunState | undefined> {
    const rows = await db.query<RunState>(
      `update payout_runs set lease_until = $2::timestamptz + make_interval(secs => $3)
        where id = (select id from payout_runs where status <> 'done' and ($1::text is null or id = $1) and (lease_until is null or lease_until <= $2)
                     order by created_at limit 1 for update skip locked)
        returning *, to_char(schedule_day, 'YYYY-MM-DD') as schedule_day`,
      [runId ?? null, now, seconds],
    );
    return rows[0];
  },

  /** Keeps the run's lease for `seconds` more (its worker is alive and working it). */
  async renew(db: Queryable, runId: string, now: Date, seconds: number): Promise<void> {
    await db.query(
      `update payout_runs set lease_until = $2::timestamptz + make_interval(secs => $3) where id = $1 and status <> 'done'`,
      [runId, now, seconds],
    );
  },

  async find(db: Queryable, runId: string): Promise<RunState | undefined> {
    return (
      await db.query<RunState>(
        "select *, to_char(schedule_day, 'YYYY-MM-DD') as schedule_day from payout_runs where id = $1",
        [runId],
      )
    )[0];
  },

  async counts(db: Queryable, runId: string): Promise<RunCounts> {
    const rows = await db.query<{ status: PayoutRow['status']; n: number }>(
      "select status, count(*)::int as n from payouts where run_id = $1 and status <> 'cancelled' group by status",
      [runId],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  },

  /** The run's next payouts to hand to the provider, in id order after `after`. */
  async toSend(db: Queryable, runId: string, after: string, limit: number): Promise<string[]> {
    const rows = await db.query<{ id: string }>(
      "select id from payouts where run_id = $1 and status = 'created' and id > $2 order by id limit $3",
      [runId, after, limit],
    );
    return rows.map((r) => r.id);
  },
};
