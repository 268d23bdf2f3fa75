import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { scheduledRunDue } from './domain/schedule.ts';
import { payoutsRepository as repo, type LineRow, type PayoutRow, type PayoutStatus, type RunRow } from './repository.ts';
import type { PayoutRuns, RunResult } from './runs.ts';
import type { PayoutSender } from './sender.ts';
import type { PayoutSettings } from './settings.ts';
import type { DestinationVerifier } from './verification.ts';

/** The vendors whose cash-on-delivery sales these delivery orders carry (the catalog knows; the app passes it in). */
export type CodVendorsOf = (orderIds: readonly string[]) => Promise<string[]>;

/** The payouts' face for routes, the CLI and the job: runs (on demand and scheduled), approvals, reads. */
export class PayoutsService {
  constructor(
    private readonly deps: { db: Db; clock: () => number; runs: PayoutRuns; sender: PayoutSender; settings: PayoutSettings; verifier: DestinationVerifier },
  ) {}

  /** A finance operator's run: creates the payouts, then sends those that need no approval. */
  async runNow(by: string): Promise<RunResult> {
    const result = (await this.deps.runs.run('manual', by))!;
    await this.deps.sender.sendAll(await repo.toSend(this.deps.db, result.run.id));
    return result;
  }

  /**
   * The periodic job: destinations the provider has not verified yet, the day's scheduled run once past
   * the cut-off (Accra time; the unique day makes it once across instances), then the recovery of
   * payouts whose fate is open.
   */
  async tick(): Promise<void> {
    await this.deps.verifier.verifyPending();
    const day = scheduledRunDue(this.deps.clock(), this.deps.settings.cutoffMinutes);
    if (day) {
      const result = await this.deps.runs.run('schedule', 'schedule', { scheduleDay: day });
      if (result) await this.deps.sender.sendAll(await repo.toSend(this.deps.db, result.run.id));
    }
    await this.deps.sender.recover();
  }

  /**
   * After a courier's cash handover committed: a run for the same-day vendors whose cod sales that
   * courier delivered lately, for their available balance past the same-day hold.
   * Once per handover (its unique id on the run); called for the request the handover wrote (RunRequests).
   */
  async afterHandover(h: { id: string; courierId: string; at: Date }, codVendorsOf: CodVendorsOf): Promise<RunResult | undefined> {
    const orders = await repo.ordersCollectedBy(this.deps.db, h.courierId, h.at);
    const vendors = orders.length === 0 ? [] : await repo.sameDayAmong(this.deps.db, await codVendorsOf(orders));
    if (vendors.length === 0) return undefined;
    const cutoff = new Date(this.deps.clock() - this.deps.settings.sameDayHoldHours * 3_600_000);
    const result = await this.deps.runs.run('handover', 'handover', { handoverId: h.id, payees: vendors.map((v) => `vendor:${v}`), cutoff });
    if (result) await this.deps.sender.sendAll(await repo.toSend(this.deps.db, result.run.id));
    return result;
  }

  approve(id: string, by: string): Promise<PayoutRow | undefined> {
    return this.deps.sender.approve(id, by);
  }

  reject(id: string, by: string): Promise<PayoutRow> {
    return this.deps.sender.reject(id, by);
  }

  async get(id: string): Promise<{ payout: PayoutRow; lines: LineRow[] }> {
    const payout = await repo.find(this.deps.db, id);
    if (!payout) throw errors.payoutNotFound(`No payout ${id}.`);
    return { payout, lines: await repo.lines(this.deps.db, id) };
  }

  list(f: { status?: PayoutStatus | undefined; payee?: string | undefined; runId?: string | undefined; limit?: number | undefined }): Promise<PayoutRow[]> {
    return repo.list(this.deps.db, { ...f, limit: f.limit ?? 100 });
  }

  runs(limit = 50): Promise<Array<RunRow & { payouts: number; total_pesewas: number }>> {
    return repo.runs(this.deps.db, limit);
  }
}
