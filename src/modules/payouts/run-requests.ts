import type { Db, Queryable } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { runRequestsRepository as repo, type RunRequestRow } from './run-requests-repository.ts';
import type { PayoutSettings } from './settings.ts';

/** A courier cash handover as the same-day run needs it. */
export interface HandoverAsked {
  handoverId: string;
  courierId: string;
  handedOverAt: Date;
}

/** Runs the same-day run of one handover (PayoutsService.afterHandover); once per handover, however often it is called. */
export type SameDayRun = (h: {
  id: string;
  courierId: string;
  at: Date;
}) => Promise<{ id: string } | undefined>;

const BATCH = 50;
/** The longest wait before a failed request is tried again. */
const MAX_RETRY_SECONDS = 3600;

/**
 * The same-day run a courier cash handover asks for, as a row written in the handover's transaction:
 * started at once after the commit, and by the payouts job for any request a crash, a failure or a
 * stop left open. A request is leased while it runs (another instance skips it) and marked done with
 * its run; the run's unique handover makes a second attempt after a crash create nothing twice.
 */
export class RunRequests {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly deps: {
      db: Db;
      clock: () => number;
      log: Logger;
      settings: PayoutSettings;
      run: SameDayRun;
    },
  ) {}

  /** In the handover's transaction: the request, and its start once that transaction has committed (off the request). */
  async request(tx: Queryable, h: HandoverAsked): Promise<void> {
    await repo.insert(tx, { ...h, at: this.now() });
    tx.afterCommit(() => this.track(this.runDue(1, h.handoverId)));
  }

  /** The job: runs the requests whose next attempt is due. Answers how many it took. */
  async runDue(limit = BATCH, handoverId?: string): Promise<number> {
    const now = this.now();
    const lease = new Date(now.getTime() + this.deps.settings.sendingGraceSeconds * 1000);
    const due = await this.deps.db.transaction((tx) =>
      repo.lease(tx, now, lease, limit, handoverId),
    );
    for (const r of due) {
      try {
        const result = await this.deps.run({
          id: r.handover_id,
          courierId: r.courier_id,
          at: r.handed_over_at,
        });
        // No result: no same-day vendor was owed, or an earlier attempt made the run (its unsent payouts are the recovery's).
        const runId = result?.id ?? (await repo.runOf(this.deps.db, r.handover_id));
        await this.deps.db.transaction((tx) => repo.done(tx, r.handover_id, runId, this.now()));
      } catch (err) {
        const wait = Math.min(
          this.deps.settings.sendingGraceSeconds * 2 ** Math.min(r.attempts - 1, 20),
          MAX_RETRY_SECONDS,
        );
        this.deps.log.error(
          { err, handover: r.handover_id, attempts: r.attempts },
          'the same-day run of a handover failed; the payouts job tries it again',
        );
        await this.deps.db.transaction((tx) =>
          repo.failed(
            tx,
            r.handover_id,
            String((err as Error).message ?? err),
            new Date(this.deps.clock() + wait * 1000),
          ),
        );
      }
    }
    return due.length;
  }

  /** The request a handover wrote (attempts, last error, done_at, run), as the job sees it. */
  find(handoverId: string): Promise<RunRequestRow | undefined> {
    return repo.find(this.deps.db, handoverId);
  }

  /** Resolves once the runs started after handovers committed have finished (shutdown, tests). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private track(p: Promise<unknown>): void {
    const done = p
      .catch((err: unknown) =>
        this.deps.log.error(
          { err },
          'starting a same-day run failed; the payouts job tries it again',
        ),
      )
      .finally(() => this.inFlight.delete(done));
    this.inFlight.add(done);
  }

  private now(): Date {
    return new Date(this.deps.clock());
  }
}
