import { Counter } from 'prom-client';
import type { Queryable } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import { processMetrics } from '../../platform/metrics/registry.ts';
import { walletAccount } from './accounts.ts';
import { assertBalanced, type Journal } from './journal.ts';

export interface EntryRow {
  journal_id: string;
  kind: string;
  subject_id: string;
  memo: string | null;
  amount_pesewas: number;
  created_at: Date;
}

/** A wallet entry with the wallet's balance just after it (exact, in pesewas). */
export interface StatementRow extends EntryRow {
  balance_after_pesewas: number;
}

/** One entry of a journal about a subject, with the journal's kind and when it was posted. */
export interface SubjectEntry {
  journal_id: string;
  kind: string;
  subject_id: string;
  account: string;
  amount_pesewas: number;
  created_at: Date;
}

/** One entry of an account on a day, with its journal's kind and subject. */
export interface DayEntry {
  account: string;
  kind: string;
  subject_id: string;
  amount_pesewas: number;
}

/** One day (UTC, which is Ghana's time) of a wallet: its balance at the day's end and the fees spent. */
export interface WalletDay {
  day: string;
  closing_pesewas: number;
  spent_pesewas: number;
}

const journalsPosted = new Counter({
  name: 'ledger_journals_posted_total',
  help: 'Ledger journals committed, by kind (wallet_topup, order_fee, sale_settlement...)',
  labelNames: ['kind'],
  registers: [processMetrics],
});

/** One CTE of a joined statement: its name (the others may read it) and its statement. */
export interface NamedStatement {
  name: string;
  sql: string;
}

/** A journal as CTEs that join another statement (see journalStatements). */
export interface JournalStatements {
  ctes: NamedStatement[];
  params: unknown[];
  /** To run once the statement has committed: counts the journal. */
  posted: () => void;
}

/**
 * A journal, its entries and the move of the one wallet it touches, as data-modifying CTEs to run
 * in one statement (parameters from `firstParam`): a journal costs one round trip, alone
 * (postJournal) or joined to the statement of what caused it (a wallet-funded order's insert).
 *
 * A wallet credit, or an unguarded debit, upserts the balance (a partner's first entry creates its
 * wallet). With `floorOf`, a debit of that partner's wallet is a guarded update instead: past minus
 * the credit limit it moves nothing (so a refusal waits for no other spend's row lock) and the
 * journal's insert then fails the whole statement (wallet_debited, SQLSTATE PP402, answered as
 * INSUFFICIENT_WALLET_BALANCE). A guarded debit of a wallet not yet created is refused the same
 * way: the caller opens the wallet (openWallet) and tries again.
 */
export function journalStatements(
  journal: Journal,
  at: Date,
  opts: { floorOf?: string } = {},
  firstParam = 1,
): JournalStatements {
  assertBalanced(journal);
  const wallets = journal.entries.filter((e) => e.walletOf !== undefined);
  if (wallets.length > 1) throw new TypeError('a journal moves one wallet at most');
  const params: unknown[] = [newId('jrn'), journal.kind, journal.subjectId, journal.memo, at];
  const p = (value: unknown) => `$${firstParam + params.push(value) - 1}`;
  const [id, kind, subject, memo, when] = params.map((_, i) => `$${firstParam + i}`);
  const values = journal.entries
    .map((e) => `(${id}, ${p(e.account)}, ${p(e.amountPesewas)}::bigint, ${when})`)
    .join(', ');
  const wallet = wallets[0];
  const partner = wallet && p(wallet.walletOf);
  const amount = wallet && `${p(wallet.amountPesewas)}::bigint`;
  const guarded = wallet && opts.floorOf === wallet.walletOf && wallet.amountPesewas < 0;
  const entries: NamedStatement[] = [
    {
      name: 'ledger_journal',
      sql: `insert into ledger_journals (id, kind, subject_id, memo, created_at) values (${id}, ${kind}, ${subject}, ${memo}, ${when})
            ${guarded ? `returning wallet_debited(${partner}, exists (select 1 from ledger_wallet_debit))` : ''}`,
    },
    {
      name: 'ledger_entries',
      sql: `insert into ledger_entries (journal_id, account, amount_pesewas, created_at) values ${values}`,
    },
  ];
  const posted = () => journalsPosted.inc({ kind: journal.kind });
  if (!wallet) return { ctes: entries, params, posted };
  if (guarded) {
    // First: the journal's insert reads whether it moved.
    const debit = `update wallets set balance_pesewas = balance_pesewas + ${amount}, updated_at = ${when}
                    where partner_id = ${partner}
                      and balance_pesewas + ${amount} >= -(select credit_limit_pesewas from partners where id = ${partner})
                    returning partner_id`;
    return { ctes: [{ name: 'ledger_wallet_debit', sql: debit }, ...entries], params, posted };
  }
  // Last, so the row lock that serialises a wallet's moves is taken as late as it can be.
  const move = `insert into wallets (partner_id, balance_pesewas, updated_at) values (${partner}, ${amount}, ${when})
                on conflict (partner_id) do update
                  set balance_pesewas = wallets.balance_pesewas + excluded.balance_pesewas, updated_at = excluded.updated_at
                returning balance_pesewas`;
  return { ctes: [...entries, { name: 'ledger_wallet_move', sql: move }], params, posted };
}

export const ledgerRepository = {
  /**
   * Posts a journal and moves the wallet balance it touches, in the caller's transaction: one
   * statement, the balance upserted (never refused; a debit that must respect the credit limit is
   * journalStatements' guarded form, joined to what causes it). Callers make posting idempotent
   * with a compare-and-set on their own row first; the unique (kind, subject) of journals is the
   * last guard.
   */
  async postJournal(tx: Queryable, journal: Journal, at: Date): Promise<void> {
    const { ctes, params, posted } = journalStatements(journal, at);
    await tx.query(
      `with ${ctes.map((c) => `${c.name} as (${c.sql})`).join(', ')} select 1 as posted`,
      params,
    );
    // Counted once committed: a transaction that rolls back or is retried posted nothing.
    tx.afterCommit(posted);
  },

  /** Creates a partner's wallet if it has none; true when this call created it. */
  async openWallet(q: Queryable, partnerId: string): Promise<boolean> {
    const rows = await q.query(
      'insert into wallets (partner_id) values ($1) on conflict (partner_id) do nothing returning partner_id',
      [partnerId],
    );
    return rows.length > 0;
  },

  /**
   * Posts many journals without wallet entries in two statements (a payout run's batch): the same rows
   * as postJournal, set-based, so a batch of a thousand journals is not a thousand round trips.
   */
  async postJournals(tx: Queryable, journals: readonly Journal[], at: Date): Promise<void> {
    if (journals.length === 0) return;
    const ids = journals.map(() => newId('jrn'));
    const entries = journals.flatMap((j, i) =>
      j.entries.map((e) => {
        // Wallet moves need postJournal's guarded balance update, one wallet at a time.
        if (e.walletOf) throw new TypeError('postJournals takes no wallet entries');
        return { journal: ids[i]!, account: e.account, amount: e.amountPesewas };
      }),
    );
    for (const j of journals) assertBalanced(j);
    await tx.query(
      `with journal as (insert into ledger_journals (id, kind, subject_id, memo, created_at)
                         select id, kind, subject_id, memo, $5 from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as j(id, kind, subject_id, memo))
       insert into ledger_entries (journal_id, account, amount_pesewas, created_at) select journal_id, account, amount, $5 from unnest($6::text[], $7::text[], $8::bigint[]) as e(journal_id, account, amount)`,
      [
        ids,
        journals.map((j) => j.kind),
        journals.map((j) => j.subjectId),
        journals.map((j) => j.memo),
        at,
        entries.map((e) => e.journal),
        entries.map((e) => e.account),
        entries.map((e) => e.amount),
      ],
    );
    tx.afterCommit(() => {
      for (const j of journals) journalsPosted.inc({ kind: j.kind });
    });
  },

  /** Locks an account until the transaction ends: a payout run takes it on the payable it pays from. */
  async lockAccount(tx: Queryable, account: string): Promise<void> {
    await tx.query(
      'select 1 as locked from (select pg_advisory_xact_lock(hashtext($1)::bigint)) as l',
      [account],
    );
  },

  /** The entries of the journals of these kinds about these subjects (a sale and its refund attempts, a top-up), oldest first. */
  async subjectEntries(
    db: Queryable,
    subjectIds: readonly string[],
    kinds: readonly string[],
  ): Promise<SubjectEntry[]> {
    return db.query(
      `select j.id as journal_id, j.kind, j.subject_id, e.account, e.amount_pesewas, j.created_at
         from ledger_journals j join ledger_entries e on e.journal_id = j.id
        where j.subject_id = any($1::text[]) and j.kind = any($2::text[]) order by j.created_at, j.id, e.account`,
      [subjectIds, kinds],
    );
  },

  /** Whether a journal of this kind about this subject was posted. */
  async posted(db: Queryable, kind: string, subjectId: string): Promise<boolean> {
    return (
      (
        await db.query(
          'select 1 as found from ledger_journals where kind = $1 and subject_id = $2',
          [kind, subjectId],
        )
      ).length > 0
    );
  },

  async balance(db: Queryable, partnerId: string): Promise<number> {
    const rows = await db.query<{ balance_pesewas: number }>(
      'select balance_pesewas from wallets where partner_id = $1',
      [partnerId],
    );
    return rows[0]?.balance_pesewas ?? 0;
  },

  async entries(db: Queryable, partnerId: string, limit: number): Promise<EntryRow[]> {
    return db.query<EntryRow>(
      `select e.journal_id, j.kind, j.subject_id, j.memo, e.amount_pesewas, e.created_at
         from ledger_entries e join ledger_journals j on j.id = e.journal_id
        where e.account = $1 order by e.created_at desc, e.journal_id desc limit $2`,
      [walletAccount(partnerId), limit],
    );
  },
  /**
   * A wallet's entries newest first, each with the running balance after it, counted back from the
   * wallet's balance (which is the sum of all its entries): the balance after an entry is that
   * balance less every newer entry. One statement, so one snapshot; a page reads its own entries and
   * sums the amounts of the newer ones on the (account, created_at) index, never the older history.
   * Keyset paged: `beforeJournalId` is the last entry of the previous page.
   */
  async statement(
    db: Queryable,
    partnerId: string,
    opts: { limit: number; beforeJournalId?: string },
  ): Promise<StatementRow[]> {
    return db.query<StatementRow>(
      `with cursor as (select created_at, journal_id from ledger_entries where account = $1 and journal_id = $2),
       page as (
         select e.journal_id, j.kind, j.subject_id, j.memo, e.amount_pesewas, e.created_at
           from ledger_entries e join ledger_journals j on j.id = e.journal_id
          where e.account = $1
            and ($2::text is null or (e.created_at, e.journal_id) < (select created_at, journal_id from cursor))
          order by e.created_at desc, e.journal_id desc
          limit $3),
       newer as (
         select coalesce(sum(e.amount_pesewas), 0) as pesewas from ledger_entries e
          where $2::text is not null and e.account = $1 and (e.created_at, e.journal_id) >= (select created_at, journal_id from cursor))
       select page.*,
              ((select coalesce(max(balance_pesewas), 0) from wallets where partner_id = $4) - (select pesewas from newer)
                - coalesce(sum(page.amount_pesewas) over (order by page.created_at desc, page.journal_id desc rows between unbounded preceding and 1 preceding), 0))::bigint
                as balance_after_pesewas
         from page
        order by created_at desc, journal_id desc`,
      [walletAccount(partnerId), opts.beforeJournalId ?? null, opts.limit, partnerId],
    );
  },
  /** The entries of one account posted on one UTC day (Accra's), each with its journal's kind and subject, oldest first. */
  async accountDay(db: Queryable, account: string, day: string): Promise<DayEntry[]> {
    return db.query<DayEntry>(
      `select e.account, j.kind, j.subject_id, e.amount_pesewas from ledger_entries e join ledger_journals j on j.id = e.journal_id
        where e.account = $1 and e.created_at >= ($2::date::timestamp at time zone 'UTC') and e.created_at < (($2::date + 1)::timestamp at time zone 'UTC')
        order by e.created_at, e.journal_id`,
      [account, day],
    );
  },
  /** The entries on every account starting with `prefix` (e.g. `courier_cash:`) posted on one UTC day, oldest first. */
  async prefixDay(db: Queryable, prefix: string, day: string): Promise<DayEntry[]> {
    return db.query<DayEntry>(
      `select e.account, j.kind, j.subject_id, e.amount_pesewas from ledger_entries e join ledger_journals j on j.id = e.journal_id
        where starts_with(e.account, $1) and e.created_at >= ($2::date::timestamp at time zone 'UTC') and e.created_at < (($2::date + 1)::timestamp at time zone 'UTC')
        order by e.created_at, e.journal_id`,
      [prefix, day],
    );
  },
  /** The last `days` days up to `today` (YYYY-MM-DD, UTC): each day's closing balance and fees spent (net of refunds). */
  async dailyWallet(
    db: Queryable,
    partnerId: string,
    today: string,
    days: number,
  ): Promise<WalletDay[]> {
    return db.query<WalletDay>(
      `with d as (
         select day::date as day, (day::timestamp at time zone 'UTC') as starts, ((day + interval '1 day')::timestamp at time zone 'UTC') as ends
           from generate_series($2::date - ($3::int - 1), $2::date, interval '1 day') as day)
       select to_char(d.day, 'YYYY-MM-DD') as day,
              (select coalesce(sum(e.amount_pesewas), 0) from ledger_entries e where e.account = $1 and e.created_at < d.ends)::bigint as closing_pesewas,
              (select coalesce(-sum(e.amount_pesewas), 0) from ledger_entries e join ledger_journals j on j.id = e.journal_id
                where e.account = $1 and j.kind in ('order_fee', 'order_fee_refund') and e.created_at >= d.starts and e.created_at < d.ends)::bigint as spent_pesewas
         from d order by d.day`,
      [walletAccount(partnerId), today, days],
    );
  },
};
