import type { Db } from './db/index.ts';
import type { Logger } from './logger.ts';
import { trackJob } from './metrics/jobs.ts';

export interface WorkerLoopOptions {
  /** The job's name in the job metrics and the logs. */
  name: string;
  /** Commits that queue work notify this channel; without one the loop runs on its interval only. */
  channel?: string;
  /** How often a round runs without a notification (work coming due later, lost notifications); 0 or less without a channel: never started. */
  pollMs: number;
  /** Rounds never start closer together than this: a round gathers the commits that came meanwhile. */
  minGapMs?: number;
  /** The first round waits one interval instead of running at start (a job on an interval). */
  waitFirst?: boolean;
  /** One round of work; answering `true` means there may be more right away (a full batch): the next round runs at once. */
  round: () => Promise<unknown>;
}

/**
 * The platform's one background worker: rounds on an interval, woken early by a channel's
 * notifications when it has one; never two rounds at once. A notification racing a round makes the
 * loop run once more instead of sleeping, so no queued work waits for the poll. A failed round is
 * logged and the next one tries again; each successful round is visible in the job metrics (last
 * success, lag). `stop` waits for the round in progress. Modules expose these as their `workers`.
 */
export class WorkerLoop {
  private loop: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;
  private notified = false;
  private unlisten: Promise<(() => Promise<void>) | undefined> | undefined;

  constructor(
    private readonly db: Pick<Db, 'listen'> | undefined,
    private readonly log: Logger,
    private readonly opts: WorkerLoopOptions,
  ) {}

  /** A job run every `intervalMs` (the first after one interval); none when the interval is 0 or less. */
  static every(
    name: string,
    intervalMs: number,
    job: () => Promise<unknown>,
    log: Logger,
  ): WorkerLoop {
    // A tick's result is a report, never "more": the next one waits its interval.
    return new WorkerLoop(undefined, log, {
      name,
      pollMs: intervalMs,
      waitFirst: true,
      round: async () => void (await job()),
    });
  }

  start(): void {
    const { channel, pollMs, name } = this.opts;
    if (!channel && pollMs <= 0) return;
    this.stopping = false;
    if (channel && this.db) {
      this.unlisten ??= this.db
        .listen(channel, () => this.prod())
        .catch((err: unknown) => {
          this.log.warn({ err, job: name }, 'could not listen for new work; polling only');
          return undefined;
        });
    }
    this.loop ??= this.run();
  }

  /** Stops listening and waits for the round in progress. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await (await this.unlisten)?.();
    this.unlisten = undefined;
    await this.loop;
    this.loop = undefined;
  }

  /** Runs another round now, or right after the one in progress (whose claim may have missed the new work). */
  prod(): void {
    this.notified = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    const { name, pollMs, minGapMs = 0, round } = this.opts;
    const tracked = trackJob(name, pollMs);
    if (this.opts.waitFirst) await this.sleep(pollMs);
    let lastRound = 0;
    while (!this.stopping) {
      const gap = lastRound + minGapMs - Date.now();
      if (gap > 0) await new Promise((r) => setTimeout(r, gap));
      lastRound = Date.now();
      this.notified = false;
      let more = false;
      try {
        more = (await round()) === true;
        tracked.succeeded();
      } catch (err) {
        this.log.warn({ err, job: name }, 'background round failed; retrying');
      }
      if (!more && !this.stopping && !this.notified) await this.sleep(pollMs);
    }
  }

  /** Waits `ms`, or less when prodded or stopped; the timer never holds the process open. */
  private async sleep(ms: number): Promise<void> {
    await new Promise<void>((r) => {
      this.wake = r;
      setTimeout(r, ms).unref();
    });
    this.wake = undefined;
  }
}
