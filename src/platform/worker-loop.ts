import type { Db } from './db/index.ts';
import type { Logger } from './logger.ts';
import { trackJob } from './metrics/jobs.ts';

export interface WorkerLoopOptions {
  /** The job's name in the job metrics and the logs. */
  name: string;
  /** Commits that queue work notify this channel. */
  channel: string;
  /** How often a round runs without a notification (work coming due later, lost notifications). */
  pollMs: number;
  /** Rounds never start closer together than this: a round gathers the commits that came meanwhile. */
  minGapMs?: number;
  /** One round of work; answers true when there may be more right away (a full batch). */
  round: () => Promise<boolean>;
}

/**
 * A background worker that runs rounds, woken by a channel's notifications and polling for the
 * rest; a notification racing a round makes the loop run once more instead of sleeping, so no
 * queued work waits for the poll. A failed round is logged and the next one tries again.
 */
export class WorkerLoop {
  private loop: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;
  private notified = false;
  private unlisten: Promise<(() => Promise<void>) | undefined> | undefined;

  constructor(
    private readonly db: Pick<Db, 'listen'>,
    private readonly log: Logger,
    private readonly opts: WorkerLoopOptions,
  ) {}

  start(): void {
    this.stopping = false;
    this.unlisten ??= this.db.listen(this.opts.channel, () => this.prod()).catch((err: unknown) => {
      this.log.warn({ err, job: this.opts.name }, 'could not listen for new work; polling only');
      return undefined;
    });
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
    let lastRound = 0;
    while (!this.stopping) {
      const gap = lastRound + minGapMs - Date.now();
      if (gap > 0) await new Promise((r) => setTimeout(r, gap));
      lastRound = Date.now();
      this.notified = false;
      let more = false;
      try {
        more = await round();
        tracked.succeeded();
      } catch (err) {
        this.log.warn({ err, job: name }, 'background round failed; retrying');
      }
      if (!more && !this.stopping && !this.notified) {
        await new Promise<void>((r) => {
          this.wake = r;
          setTimeout(r, pollMs).unref();
        });
        this.wake = undefined;
      }
    }
  }
}
