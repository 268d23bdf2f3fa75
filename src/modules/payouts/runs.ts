import type { PayoutDestination } from '../../integrations/transfers/types.ts';
import type { Db } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import { ledger } from '../ledger/index.ts';
import { payoutCreatedJournal } from './domain/journals.ts';
import type { PayeesService } from './payees.ts';
import { payoutsRepository as repo, type DestinationRow, type PayoutRow, type RunRow } from './repository.ts';
import type { PayoutSettings } from './settings.ts';

export interface RunResult {
  run: RunRow;
  created: number;
  awaiting_approval: number;
  /** Payees owed enough but without a destination. */
  without_destination: string[];
}

const toDestination = (d: DestinationRow): PayoutDestination =>
  d.kind === 'mobile_money'
    ? { kind: 'mobile_money', network: d.network as 'mtn' | 'telecel' | 'airteltigo', number: d.number, name: d.name }
    : { kind: 'bank', bankCode: d.bank_code!, accountNumber: d.number, name: d.name };

const payeeOf = (account: string) => (account.startsWith('vendor_payable:') ? `vendor:${account.slice(15)}` : `partner:${account.slice(23)}`);

/**
 * A payout run: every payee whose available balance reaches the minimum gets one payout, covering
 * the ledger entries settled before the hold's cut-off that no live payout covers yet. Each payout
 * is created in its own short transaction (its row, its lines, its journal); nothing is sent here.
 */
export class PayoutRuns {
  constructor(
    private readonly deps: { db: Db; clock: () => number; log: Logger; payees: PayeesService; settings: PayoutSettings; provider: string },
  ) {}

  /** Creates a run and its payouts; a scheduled run for a day that already has one answers undefined. */
  async run(trigger: 'schedule' | 'manual', by: string, scheduleDay?: string): Promise<RunResult | undefined> {
    const { db, clock, payees, settings } = this.deps;
    const now = new Date(clock());
    const run: RunRow = { id: newId('prun'), trigger, started_by: by, cutoff: payees.holdCutoff(), schedule_day: scheduleDay ?? null, created_at: now };
    if (!(await db.transaction((tx) => repo.insertRun(tx, run)))) return undefined;
    const result: RunResult = { run, created: 0, awaiting_approval: 0, without_destination: [] };
    for (const owed of await repo.payables(db, run.cutoff)) {
      if (owed.available_pesewas < settings.minimumPesewas) continue;
      const payee = payeeOf(owed.account);
      const destination = await repo.destination(db, payee);
      if (!destination) {
        result.without_destination.push(payee);
        continue;
      }
      const status = await this.createPayout(run, payee, owed.account, destination);
      if (status === 'awaiting_approval') result.awaiting_approval++;
      if (status) result.created++;
    }
    this.deps.log.info({ run: run.id, trigger, created: result.created, awaiting: result.awaiting_approval }, 'payout run created its payouts');
    return result;
  }

  private async createPayout(run: RunRow, payee: string, account: string, destination: DestinationRow): Promise<PayoutRow['status'] | undefined> {
    const { db, clock, payees, settings, provider } = this.deps;
    try {
      return await db.transaction(async (tx) => {
        // Read again inside the transaction: the lines are exactly what this payout pays.
        const lines = await repo.uncoveredLines(tx, payee, account, run.cutoff);
        const amount = lines.reduce((n, l) => n + Number(l.amount_pesewas), 0);
        // Below the minimum, or negative (a return after a payout): left owed, deducted from a later payout.
        if (amount < settings.minimumPesewas) return undefined;
        const reasons = [...(amount > settings.approvalAbovePesewas ? ['amount'] : []), ...(payees.cooling(destination) ? ['destination_changed'] : [])];
        const at = new Date(clock());
        const payout: PayoutRow = {
          id: newId('pout'), run_id: run.id, payee, account, amount_pesewas: amount, provider, destination: toDestination(destination),
          status: reasons.length > 0 ? 'awaiting_approval' : 'created', approval_reasons: reasons, created_by: run.started_by, approved_by: null,
          provider_reference: null, fee_pesewas: null, failure_reason: null, attempts: 0, sending_since: null, created_at: at, updated_at: at,
        };
        await repo.insertPayout(tx, payout, lines);
        await ledger.postJournal(tx, payoutCreatedJournal(payout.id, account, amount), at);
        return payout.status;
      });
    } catch (err) {
      // Another run covered some of these entries first: they are paid by that run's payout.
      if ((err as { code?: string }).code === '23505') return undefined;
      throw err;
    }
  }
}
