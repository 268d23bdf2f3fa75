import type { Db, Queryable } from '../../platform/db/index.ts';
import { ledger, transferClearing } from '../ledger/index.ts';
import { matchTransferDay, type TransferRecord } from './domain/match-transfers.ts';
import type { DayResult } from './domain/match.ts';
import { readStatement, type StatementLine } from './domain/statement.ts';
import { statementReimport } from './domain/versions.ts';
import type { TransferBooks } from './ports.ts';
import { saveLine, Tally } from './saved-lines.ts';
import { readOr400, TRANSFERS } from './sources.ts';
import { statementsRepository as repo } from './statements-repository.ts';
import {
  asReimported,
  versionsRepository as versions,
  type VersionRow,
} from './versions-repository.ts';

type Refresh = (source: string, days: Iterable<string>, by: string) => Promise<void>;

export interface StatementOutcome {
  provider: string;
  lines: number;
  inserted: number;
  /** Transfers held that moved on since (pending then paid or failed, paid then reversed). */
  updated: number;
  already_imported: number;
  reimported_differently: number;
  /** Fees of paid transfers whose answer gave none, booked from the statement by the module that sent them. */
  fees_booked: number;
}

/**
 * Money out: the transfer provider's statements (Paystack's transfers export, normalised) imported
 * line by line, fees the transfers' answers left out booked from them, and a day matched against
 * the payouts and buyer refunds we sent (through the `TransferBooks` each module's face offers).
 */
export class TransferStatements {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    readonly provider: string,
    private readonly books: readonly TransferBooks[],
    private readonly refresh: Refresh,
  ) {}

  /** Imports a statement in one transaction, with the fees it books; then runs again the days already reconciled that it changes. */
  async import(csv: string, by: string): Promise<StatementOutcome> {
    const lines = readOr400('statement', () => readStatement(csv));
    // Read first, so that only transfers still without a fee are asked to book one (in the transaction, by compare-and-set).
    const ours = await this.ask((b) =>
      b.byReference(
        this.provider,
        lines.map((l) => l.reference),
      ),
    );
    const feeless = new Set(
      ours
        .filter((r) => r.feePesewas === null && (r.state === 'paid' || r.state === 'reversed'))
        .map((r) => r.reference),
    );
    const at = new Date(this.clock());
    const tally = new Tally();
    let fees = 0;
    await this.db.transaction(async (tx) => {
      for (const line of lines) {
        const r = await this.saveStatementLine(tx, line, by, at);
        tally.add(r);
        if (
          r.saved !== 'reimported' &&
          feeless.has(line.reference) &&
          (await this.bookFee(tx, line))
        ) {
          fees++;
          tally.days.add(line.day);
        }
      }
    });
    await this.refresh(TRANSFERS, tally.days, by);
    return { provider: this.provider, ...tally.answer(lines.length), fees_booked: fees };
  }

  private saveStatementLine(tx: Queryable, line: StatementLine, by: string, at: Date) {
    const store = {
      insert: () => repo.insertLine(tx, this.provider, line, at),
      held: () => repo.heldLine(tx, this.provider, line.reference),
      replace: () => repo.replaceLine(tx, this.provider, line, at),
    };
    const classify = async (held: Parameters<typeof statementReimport>[0]) =>
      statementReimport(held, line);
    return saveLine(tx, store, classify, {
      source: this.provider,
      kind: 'transfer',
      reference: line.reference,
      version: line,
      occurredAt: line.occurredAt,
      day: line.day,
      by,
      at,
    });
  }

  /** The fee of a transfer that moved money, booked by the module whose transfer it is, when its answer gave none. */
  private async bookFee(tx: Queryable, line: StatementLine): Promise<boolean> {
    if ((line.state !== 'paid' && line.state !== 'reversed') || line.feePesewas === 0) return false;
    for (const books of this.books)
      if (await books.bookFee(tx, this.provider, line.reference, line.feePesewas, line.occurredAt))
        return true;
    return false;
  }

  /** The day's statement lines against our transfers, and the transfers whose money the ledger moved that day. */
  async day(day: string): Promise<DayResult> {
    const [entries, lines, reimported] = await Promise.all([
      ledger.accountDay(this.db, transferClearing(this.provider), day),
      repo.day(this.db, this.provider, day),
      this.versions(day),
    ]);
    const subjects = [...new Set(entries.map((e) => e.subject_id))];
    const [moved, named] = await Promise.all([
      this.ask((b) => b.bySubject(this.provider, subjects)),
      this.ask((b) =>
        b.byReference(
          this.provider,
          lines.map((l) => l.reference),
        ),
      ),
    ]);
    const onStatement = await repo.held(
      this.db,
      this.provider,
      moved.map((r) => r.reference),
    );
    return matchTransferDay(
      lines,
      new Map(named.map((r) => [r.reference, r])),
      moved,
      onStatement,
      asReimported(reimported),
    );
  }

  versions(day: string): Promise<VersionRow[]> {
    return versions.statementDay(this.db, this.provider, day);
  }

  private async ask(
    q: (books: TransferBooks) => Promise<TransferRecord[]>,
  ): Promise<TransferRecord[]> {
    return (await Promise.all(this.books.map(q))).flat();
  }
}
