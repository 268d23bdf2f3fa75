import type { Queryable } from '../../platform/db/index.ts';
import { walletAccount } from './accounts.ts';

export interface JournalRow {
  id: string;
  kind: string;
  subject_id: string;
  memo: string | null;
  created_at: Date;
  /** The sum of the journal's positive legs (what it moved), in pesewas. */
  moved_pesewas: number;
}

export interface JournalLeg {
  account: string;
  amount_pesewas: number;
}

export interface JournalFilter {
  limit: number;
  kind?: string;
  partnerId?: string;
  /** Journals posted on this UTC day (YYYY-MM-DD) or before. */
  until?: string;
  /** Keyset: the last journal of the previous page. */
  beforeId?: string;
}

/**
 * Read-only views of the ledger for operators: journals newest first, one journal with its legs,
 * an account's balance.
 */
export class LedgerReads {
  constructor(private readonly db: Queryable) {}

  async journals(f: JournalFilter): Promise<JournalRow[]> {
    return this.db.query<JournalRow>(
      `select j.id, j.kind, j.subject_id, j.memo, j.created_at,
              (select coalesce(sum(e.amount_pesewas) filter (where e.amount_pesewas > 0), 0) from ledger_entries e where e.journal_id = j.id)::bigint as moved_pesewas
         from ledger_journals j
        where ($1::text is null or j.kind = $1)
          and ($2::text is null or exists (select 1 from ledger_entries e where e.journal_id = j.id and e.account = $2))
          and ($3::text is null or (j.created_at, j.id) < (select created_at, id from ledger_journals where id = $3))
          and ($5::date is null or j.created_at < (($5::date + 1)::timestamp at time zone 'UTC'))
        order by j.created_at desc, j.id desc
        limit $4`,
      [
        f.kind ?? null,
        f.partnerId ? walletAccount(f.partnerId) : null,
        f.beforeId ?? null,
        f.limit,
        f.until ?? null,
      ],
    );
  }

  /** The journals of these kinds about one subject (a payout, a sale), oldest first: found through the (kind, subject) key. */
  async about(kinds: readonly string[], subjectId: string): Promise<JournalRow[]> {
    return this.db.query<JournalRow>(
      `select j.id, j.kind, j.subject_id, j.memo, j.created_at,
              (select coalesce(sum(e.amount_pesewas) filter (where e.amount_pesewas > 0), 0) from ledger_entries e where e.journal_id = j.id)::bigint as moved_pesewas
         from ledger_journals j where j.kind = any($1::text[]) and j.subject_id = $2
        order by j.created_at, j.id`,
      [kinds, subjectId],
    );
  }

  /** One account's balance: the sum of its entries in pesewas (0 for an account without any). */
  async balance(account: string): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      'select coalesce(sum(amount_pesewas), 0)::bigint as n from ledger_entries where account = $1',
      [account],
    );
    return Number(rows[0]!.n);
  }

  async journal(id: string): Promise<{ journal: JournalRow; legs: JournalLeg[] } | undefined> {
    const rows = await this.db.query<JournalRow>(
      `select j.id, j.kind, j.subject_id, j.memo, j.created_at, 0::bigint as moved_pesewas from ledger_journals j where j.id = $1`,
      [id],
    );
    const journal = rows[0];
    if (!journal) return undefined;
    const legs = await this.db.query<JournalLeg>(
      'select account, amount_pesewas from ledger_entries where journal_id = $1 order by amount_pesewas asc, account',
      [id],
    );
    return { journal, legs };
  }
}
