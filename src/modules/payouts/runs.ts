import type { Db, Queryable } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import { ledger } from '../ledger/index.ts';
import { toDestination } from './domain/destinations.ts';
import { payeeFee } from './domain/fees.ts';
import {
  payeeAccounts,
  payoutCreatedJournal,
  sentAmount,
  splitOf,
  type PayoutSplit,
} from './domain/journals.ts';
import type { PayeesService } from './payees.ts';
import {
  payoutsRepository as repo,
  type DestinationRow,
  type LineRow,
  type PayableRow,
  type PayoutRow,
  type RunRow,
} from './repository.ts';
import { runRepository as runs, type RunState } from './run-repository.ts';
import type { HeldSubjects } from './service.ts';
import { afterGrace, type PayoutSettings } from './settings.ts';

/** What a run covers besides everyone's money past the hold: a scheduled day, or a handover's same-day vendors and their shorter hold. */
export type RunScope =
  | { scheduleDay: string }
  | { handoverId: string; payees: string[]; cutoff: Date };

/**
 * A payout run: every payee whose available balance reaches the minimum gets one payout, covering
 * the ledger entries settled before the hold's cut-off that no live payout covers yet. `start` only
 * records the run (its id is answered at once); `createAll` makes its payouts in batches of payees in
 * payee order, set-based (a handful of statements per batch, whatever its size), in one transaction
 * with the run's cursor, so a crash resumes after the last committed batch. Nothing is sent here.
 */
export class PayoutRuns {
  constructor(
    private readonly deps: {
      db: Db;
      clock: () => number;
      log: Logger;
      payees: PayeesService;
      settings: PayoutSettings;
      provider: string;
      /** Sales whose money waits for their recipient (none by default). */
      held?: HeldSubjects | undefined;
    },
  ) {}

  /** Records a run, `creating`; a scheduled run for a day, or a run for a handover, that already has one answers undefined. */
  async start(
    trigger: RunRow['trigger'],
    by: string,
    scope?: RunScope,
  ): Promise<RunRow | undefined> {
    const handover = scope && 'handoverId' in scope ? scope : undefined;
    const run: RunRow = {
      id: newId('prun'),
      trigger,
      started_by: by,
      cutoff: handover?.cutoff ?? this.deps.payees.holdCutoff(),
      schedule_day: scope && 'scheduleDay' in scope ? scope.scheduleDay : null,
      handover_id: handover?.handoverId ?? null,
      payees: handover?.payees ?? null,
      created_at: new Date(this.deps.clock()),
    };
    return (await this.deps.db.transaction((tx) => repo.insertRun(tx, run))) ? run : undefined;
  }

  /**
   * Makes the payouts of every payee owed after the run's cursor, `runBatchSize` payees per transaction;
   * `renew` is called after each batch (the run's lease). Who is owed is read once (one aggregate over
   * the payables); each batch reads its own lines again under the payables' locks. Payees below the
   * minimum, without a destination or with one the provider has not verified are skipped (the last two
   * recorded on the run).
   */
  async createAll(run: RunState, renew: () => Promise<void>): Promise<void> {
    const { db, settings } = this.deps;
    const scope = run.payees?.flatMap((p) => Object.values(payeeAccounts(p)));
    const owed = await runs.owedAfter(db, run.cutoff, run.payee_cursor, scope);
    for (let i = 0; i < owed.length; i += settings.runBatchSize) {
      await this.createBatch(run, owed.slice(i, i + settings.runBatchSize));
      await renew();
    }
  }

  private async createBatch(run: RunState, owed: PayableRow[]): Promise<void> {
    const { db, settings } = this.deps;
    const enough = owed
      .filter((o) => Number(o.available_pesewas) >= settings.minimumPesewas)
      .map((o) => o.payee);
    const byPayee = new Map(
      (enough.length ? await runs.destinations(db, enough) : []).map((d) => [d.payee, d]),
    );
    // Nothing goes to a destination the provider has not verified (or an operator accepted after review).
    const withoutDestination = enough.filter((p) => !byPayee.has(p));
    const unverified = enough.filter(
      (p) => byPayee.get(p) && byPayee.get(p)!.verification !== 'verified',
    );
    const payable = enough
      .filter((p) => byPayee.get(p)?.verification === 'verified')
      .map((payee) => ({ payee, ...payeeAccounts(payee) }));
    await db.transaction(async (tx) => {
      // The payables' locks, as a refund takes them: a refund decides payable or receivable on what a payout leaves.
      await runs.lockAccounts(
        tx,
        payable.map((p) => p.payable),
      );
      // Read inside the transaction: the lines are exactly what each payout pays, its receivable's entries among them as deductions.
      const linesOf = new Map<string, LineRow[]>();
      for (const l of await this.unheld(tx, await runs.linesOf(tx, payable, run.cutoff)))
        linesOf.set(l.payee, [...(linesOf.get(l.payee) ?? []), l]);
      const made = payable
        .map(({ payee }) => this.payout(run, payee, byPayee.get(payee)!, linesOf.get(payee) ?? []))
        .filter((x) => x !== undefined);
      if (made.length > 0) {
        await runs.insertPayouts(tx, made);
        await ledger.postJournals(
          tx,
          made.map((m) => payoutCreatedJournal(m.payout.id, m.split)),
          made[0]!.payout.created_at,
        );
      }
      await runs.advance(tx, run.id, {
        cursor: owed.at(-1)!.payee,
        owed: made.length,
        withoutDestination,
        unverified,
      });
    });
  }

  /** The lines but those of sales whose money waits for their recipient's confirmation (left for a later run). */
  private async unheld<L extends LineRow>(tx: Queryable, lines: L[]): Promise<L[]> {
    const subjects = [
      ...new Set(lines.filter((l) => l.amount_pesewas > 0).map((l) => l.subject_id)),
    ];
    if (!this.deps.held || subjects.length === 0) return lines;
    const held = await this.deps.held(tx, subjects);
    return held.size === 0 ? lines : lines.filter((l) => !held.has(l.subject_id));
  }

  /**
   * One payee's payout from its lines, less the fee its payee bears; undefined below the minimum once
   * that fee is withheld, or when it owes back more than it is owed (left for a later run).
   */
  private payout(
    run: RunRow,
    payee: string,
    destination: DestinationRow,
    lines: LineRow[],
  ): { payout: PayoutRow; lines: LineRow[]; split: PayoutSplit } | undefined {
    const { settings, clock, payees, provider } = this.deps;
    const accounts = payeeAccounts(payee);
    const split = splitOf(accounts, lines, payeeFee(settings.fees, payee, destination.kind));
    const amount = sentAmount(split);
    if (amount < settings.minimumPesewas) return undefined;
    const reasons = payees.approvalReasons(amount, destination);
    const at = new Date(clock());
    const status = reasons.length > 0 ? 'awaiting_approval' : 'created';
    const payout: PayoutRow = {
      id: newId('pout'),
      run_id: run.id,
      payee,
      account: accounts.payable,
      amount_pesewas: amount,
      provider,
      destination: toDestination(destination),
      destination_version: destination.version,
      status,
      approval_reasons: reasons,
      created_by: run.started_by,
      approved_by: null,
      provider_reference: null,
      fee_pesewas: null,
      payee_fee_pesewas: split.fee,
      failure_reason: null,
      attempts: 0,
      sending_since: null,
      replaced_by: null,
      next_check_at: status === 'created' ? afterGrace(settings, at) : null,
      checks: 0,
      created_at: at,
      updated_at: at,
    };
    return {
      payout,
      split,
      lines: lines.map(({ journal_id, kind, subject_id, amount_pesewas, account }) => ({
        journal_id,
        kind,
        subject_id,
        amount_pesewas,
        account,
      })),
    };
  }
}
