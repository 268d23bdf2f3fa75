import type { Queryable } from '../../platform/db/index.ts';
import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { scheduledRunDue } from './domain/schedule.ts';
import {
  payoutsRepository as repo,
  type LineRow,
  type PayoutRow,
  type PayoutStatus,
  type RunRow,
} from './repository.ts';
import { runRepository as runState, type RunCounts, type RunState } from './run-repository.ts';
import type { RunSender } from './run-sender.ts';
import type { PayoutRuns, RunScope } from './runs.ts';
import type { PayoutSender } from './sender.ts';
import type { PayoutSettings } from './settings.ts';
import type { DestinationVerifier } from './verification.ts';

/** The vendors whose cash-on-delivery sales these delivery orders carry (the catalog knows; the app passes it in). */
export type CodVendorsOf = (orderIds: readonly string[]) => Promise<string[]>;

/**
 * Of these journal subjects (sale ids among them), those whose money must wait: a sale whose
 * delivery the recipient has not confirmed (a photo or signature stood in for their code). Read in
 * the run's transaction, after its lines: a settlement the lines saw had its hold committed with it.
 */
export type HeldSubjects = (
  q: Queryable,
  subjectIds: readonly string[],
) => Promise<ReadonlySet<string>>;

/** A run's worker holds it this long past each batch or page; a crashed worker's run is taken over after it. */
const RUN_LEASE_SECONDS = 60;

/** A run with its payouts counted by status: its progress. */
export interface RunProgress extends RunState {
  counts: RunCounts;
}

/** The payouts' face for routes, the CLI and the job: runs (on demand and scheduled, worked in the background), approvals, reads. */
export class PayoutsService {
  readonly #working = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      db: Db;
      clock: () => number;
      log: Logger;
      runs: PayoutRuns;
      runSender: RunSender;
      sender: PayoutSender;
      settings: PayoutSettings;
      verifier: DestinationVerifier;
    },
  ) {}

  /** A finance operator's run: recorded and answered at once; this instance's worker makes and sends its payouts. */
  async start(by: string): Promise<RunRow> {
    const run = (await this.deps.runs.start('manual', by))!;
    const working: Promise<void> = this.work(run.id)
      .then(() => undefined)
      .catch((err: unknown) =>
        this.deps.log.warn(
          { err, run: run.id },
          'payout run stopped; the payouts job resumes it once its lease passes',
        ),
      )
      .finally(() => this.#working.delete(working));
    this.#working.add(working);
    return run;
  }

  /** Starts a run and works it to the end here (the schedule, a handover). Undefined when its day or handover had one. */
  async run(
    trigger: RunRow['trigger'],
    by: string,
    scope?: RunScope,
  ): Promise<RunProgress | undefined> {
    const run = await this.deps.runs.start(trigger, by, scope);
    if (!run) return undefined;
    await this.work(run.id);
    return this.progress(run.id);
  }

  /**
   * Works a run (the given one, or the oldest unfinished one no worker holds): its payouts made batch by
   * batch, then sent; done after. False when there was none to take.
   */
  async work(runId?: string): Promise<boolean> {
    const { db, clock } = this.deps;
    const run = await runState.lease(db, runId, new Date(clock()), RUN_LEASE_SECONDS);
    if (!run) return false;
    // Renewed at most every tenth of the lease: often enough, without a write per batch or page.
    let renewed = Date.now();
    const renew = async () => {
      if (Date.now() - renewed < (RUN_LEASE_SECONDS * 1000) / 10) return;
      renewed = Date.now();
      await runState.renew(db, run.id, new Date(clock()), RUN_LEASE_SECONDS);
    };
    if (run.status === 'creating') {
      await this.deps.runs.createAll(run, renew);
      await db.transaction((tx) => runState.setStatus(tx, run.id, 'sending', new Date(clock())));
    }
    await this.deps.runSender.sendRun(run.id, renew);
    await db.transaction((tx) => runState.setStatus(tx, run.id, 'done', new Date(clock())));
    this.deps.log.info(
      { run: run.id, trigger: run.trigger },
      'payout run made and sent its payouts',
    );
    return true;
  }

  /** Waits for the runs this instance is working in the background (shutdown, tests). */
  async settle(): Promise<void> {
    await Promise.all([...this.#working]);
  }

  /**
   * The periodic job: destinations the provider has not verified yet, runs a crashed or stopped worker
   * left, the day's scheduled run once past the cut-off (Accra time; the unique day makes it once
   * across instances), then the recovery of payouts whose fate is open.
   */
  async tick(): Promise<void> {
    await this.deps.verifier.verifyPending();
    while (await this.work());
    const day = scheduledRunDue(this.deps.clock(), this.deps.settings.cutoffMinutes);
    if (day) await this.run('schedule', 'schedule', { scheduleDay: day });
    await this.deps.sender.recover();
  }

  /**
   * After a courier's cash handover committed: a run for the same-day vendors whose cod sales that
   * courier delivered lately, for their available balance past the same-day hold.
   * Once per handover (its unique id on the run); called for the request the handover wrote (RunRequests).
   */
  async afterHandover(
    h: { id: string; courierId: string; at: Date },
    codVendorsOf: CodVendorsOf,
  ): Promise<RunProgress | undefined> {
    const orders = await repo.ordersCollectedBy(this.deps.db, h.courierId, h.at);
    const vendors =
      orders.length === 0 ? [] : await repo.sameDayAmong(this.deps.db, await codVendorsOf(orders));
    if (vendors.length === 0) return undefined;
    const cutoff = new Date(this.deps.clock() - this.deps.settings.sameDayHoldHours * 3_600_000);
    return this.run('handover', 'handover', {
      handoverId: h.id,
      payees: vendors.map((v) => `vendor:${v}`),
      cutoff,
    });
  }

  /** A run with its payouts counted by status. */
  async progress(runId: string): Promise<RunProgress> {
    const run = await runState.find(this.deps.db, runId);
    if (!run) throw errors.payoutRunNotFound(`No payout run ${runId}.`);
    return { ...run, counts: await runState.counts(this.deps.db, runId) };
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

  list(f: {
    status?: PayoutStatus | undefined;
    payee?: string | undefined;
    runId?: string | undefined;
    limit?: number | undefined;
  }): Promise<PayoutRow[]> {
    return repo.list(this.deps.db, { ...f, limit: f.limit ?? 100 });
  }

  runs(limit = 50): Promise<Array<RunState & { payouts: number; total_pesewas: number }>> {
    return repo.runs(this.deps.db, limit) as Promise<
      Array<RunState & { payouts: number; total_pesewas: number }>
    >;
  }
}
