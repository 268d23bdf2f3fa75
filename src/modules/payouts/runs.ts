import type { Db } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import { ledger } from '../ledger/index.ts';
import { toDestination } from './domain/destinations.ts';
import { payeeFee } from './domain/fees.ts';
import { payeeAccounts, payoutCreatedJournal, sentAmount, splitOf } from './domain/journals.ts';
import type { PayeesService } from './payees.ts';
import { payoutsRepository as repo, type DestinationRow, type PayoutRow, type RunRow } from './repository.ts';
import { afterGrace, type PayoutSettings } from './settings.ts';

export interface RunResult {
  run: RunRow;
  created: number;
  awaiting_approval: number;
  /** Payees owed enough but without a destination. */
  without_destination: string[];
  /** Payees owed enough whose destination is not verified (being checked, or waiting for review): skipped. */
  unverified_destination: string[];
}

/** What a run covers besides everyone's money past the hold: a scheduled day, or a handover's same-day vendors and their shorter hold. */
export type RunScope = { scheduleDay: string } | { handoverId: string; payees: string[]; cutoff: Date };

/**
 * A payout run: every payee whose available balance reaches the minimum gets one payout, covering
 * the ledger entries settled before the hold's cut-off that no live payout covers yet. Each payout
 * is created in its own short transaction (its row, its lines, its journal); nothing is sent here.
 */
export class PayoutRuns {
  constructor(
    private readonly deps: { db: Db; clock: () => number; log: Logger; payees: PayeesService; settings: PayoutSettings; provider: string },
  ) {}

  /**
   * Creates a run and its payouts; a scheduled run for a day, or a run for a handover, that already
   * has one answers undefined. A handover's run covers only its payees.
   */
  async run(trigger: RunRow['trigger'], by: string, scope?: RunScope): Promise<RunResult | undefined> {
    const { db, clock, payees, settings } = this.deps;
    const now = new Date(clock());
    const handover = scope && 'handoverId' in scope ? scope : undefined;
    const run: RunRow = {
      id: newId('prun'), trigger, started_by: by, cutoff: handover?.cutoff ?? payees.holdCutoff(), schedule_day: scope && 'scheduleDay' in scope ? scope.scheduleDay : null,
      handover_id: handover?.handoverId ?? null, created_at: now,
    };
    if (handover?.payees.length === 0) return { run, created: 0, awaiting_approval: 0, without_destination: [], unverified_destination: [] };
    if (!(await db.transaction((tx) => repo.insertRun(tx, run)))) return undefined;
    const result: RunResult = { run, created: 0, awaiting_approval: 0, without_destination: [], unverified_destination: [] };
    const accounts = handover?.payees.flatMap((p) => Object.values(payeeAccounts(p)));
    for (const owed of await repo.payables(db, run.cutoff, accounts)) {
      if (owed.available_pesewas < settings.minimumPesewas) continue;
      const payee = owed.payee;
      const destination = await repo.destination(db, payee);
      if (!destination) {
        result.without_destination.push(payee);
        continue;
      }
      // Nothing goes to a destination the provider has not verified (or an operator accepted after review).
      if (destination.verification !== 'verified') {
        result.unverified_destination.push(payee);
        continue;
      }
      const status = await this.createPayout(run, payee, destination);
      if (status === 'awaiting_approval') result.awaiting_approval++;
      if (status) result.created++;
    }
    this.deps.log.info({ run: run.id, trigger, created: result.created, awaiting: result.awaiting_approval, unverified: result.unverified_destination.length }, 'payout run created its payouts');
    return result;
  }

  private async createPayout(run: RunRow, payee: string, destination: DestinationRow): Promise<PayoutRow['status'] | undefined> {
    const { db, clock, payees, settings, provider } = this.deps;
    const accounts = payeeAccounts(payee);
    try {
      return await db.transaction(async (tx) => {
        // The payable's lock, as a refund takes it: a refund decides payable or receivable on what this payout leaves.
        await ledger.lockAccount(tx, accounts.payable);
        // Read again inside the transaction: the lines are exactly what this payout pays, its
        // receivable's entries (returns after an earlier payout) among them as deductions.
        const lines = await repo.uncoveredLines(tx, payee, accounts, run.cutoff);
        const split = splitOf(accounts, lines, payeeFee(settings.fees, payee, destination.kind));
        const amount = sentAmount(split);
        // Below the minimum once the fee its payee bears is withheld, or less than what the payee owes back: left for a later payout.
        if (amount < settings.minimumPesewas) return undefined;
        const account = accounts.payable;
        const reasons = payees.approvalReasons(amount, destination);
        const at = new Date(clock());
        const status = reasons.length > 0 ? 'awaiting_approval' : 'created';
        const payout: PayoutRow = {
          id: newId('pout'), run_id: run.id, payee, account, amount_pesewas: amount, provider, destination: toDestination(destination), destination_version: destination.version,
          status, approval_reasons: reasons, created_by: run.started_by, approved_by: null, provider_reference: null, fee_pesewas: null, payee_fee_pesewas: split.fee, failure_reason: null,
          attempts: 0, sending_since: null, replaced_by: null, next_check_at: status === 'created' ? afterGrace(settings, at) : null, checks: 0, created_at: at, updated_at: at,
        };
        await repo.insertPayout(tx, payout, lines);
        await ledger.postJournal(tx, payoutCreatedJournal(payout.id, split), at);
        return payout.status;
      });
    } catch (err) {
      // Another run covered some of these entries first: they are paid by that run's payout.
      if ((err as { code?: string }).code === '23505') return undefined;
      throw err;
    }
  }
}
