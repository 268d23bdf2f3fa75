import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { ledger } from '../ledger/index.ts';
import { settlementJournal } from './domain/journals.ts';
import { reconciliationRepository as lines } from './repository.ts';
import {
  settlementsRepository as repo,
  type SettlementRow,
  type SettlementStatus,
} from './settlements-repository.ts';

type Refresh = (source: string, days: Iterable<string>, by: string) => Promise<void>;

/**
 * Settlements' maker-checker: an import proposes each settlement (the importer is its maker); a
 * second finance operator approves it, and only then does its `gateway_settlement` journal post,
 * in the approval's transaction (the compare-and-set on the proposal and the ledger's unique
 * (kind, subject) make it once). Any finance operator may reject one; nothing is posted.
 */
export class SettlementApprovals {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    private readonly refresh: Refresh,
  ) {}

  list(
    f: { status?: SettlementStatus | undefined; gateway?: string | undefined } = {},
    limit = 100,
  ): Promise<SettlementRow[]> {
    return repo.list(this.db, f, limit);
  }

  async get(id: string): Promise<SettlementRow> {
    const found = await repo.find(this.db, id);
    if (!found) throw errors.notFound(`No settlement ${id}.`);
    return found;
  }

  /** A second finance operator (never the importer) approves: the journal posts, dated on the settlement's date. */
  async approve(id: string, by: string): Promise<SettlementRow> {
    const s = await this.waiting(id);
    if (s.proposed_by === by)
      throw errors.sameOperator(
        'A settlement is approved by a second finance operator, not the one who imported it.',
      );
    const approved = await this.db.transaction(async (tx) => {
      const done = await repo.decide(tx, id, 'approved', by, this.now(), null);
      if (!done)
        throw errors.invalidTransition(`Settlement ${id} is no longer waiting for approval.`);
      await ledger.postJournal(
        tx,
        settlementJournal(
          done.gateway,
          done.settlement_id,
          Number(done.amount_pesewas),
          Number(done.fee_pesewas),
        ),
        done.settled_at,
      );
      return done;
    });
    await this.refresh(
      approved.gateway,
      await lines.settlementDays(this.db, approved.gateway, approved.settlement_id),
      by,
    );
    return approved;
  }

  /** Any finance operator rejects a proposed settlement (its importer too, to withdraw it): nothing posts. */
  async reject(id: string, by: string, reason: string): Promise<SettlementRow> {
    const why = reason.trim();
    if (why.length < 3 || why.length > 500)
      throw errors.validation('A rejection needs a reason of 3 to 500 characters.', [
        { field: 'reason', issue: 'must be 3 to 500 characters' },
      ]);
    await this.waiting(id);
    const rejected = await this.db.transaction((tx) =>
      repo.decide(tx, id, 'rejected', by, this.now(), why),
    );
    if (!rejected)
      throw errors.invalidTransition(`Settlement ${id} is no longer waiting for approval.`);
    await this.refresh(
      rejected.gateway,
      await lines.settlementDays(this.db, rejected.gateway, rejected.settlement_id),
      by,
    );
    return rejected;
  }

  private async waiting(id: string): Promise<SettlementRow> {
    const s = await this.get(id);
    if (s.status !== 'proposed')
      throw errors.invalidTransition(`Settlement ${id} is ${s.status}, not waiting for approval.`);
    return s;
  }

  private now(): Date {
    return new Date(this.clock());
  }
}
