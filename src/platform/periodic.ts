import type { Logger } from './logger.ts';
import { trackJob } from './metrics/jobs.ts';

/**
 * Runs a job every `intervalMs` in the background, never two runs at once; a failed run is
 * logged and the next one tries again. `stop` waits for a run in progress. Each successful run
 * is visible in the job metrics (last success, lag).
 */
export class Periodic {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly job: () => Promise<unknown>,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || this.timer) return;
    const tracked = trackJob(this.name, this.intervalMs);
    this.timer = setInterval(() => {
      this.running ??= this.job()
        .then(() => tracked.succeeded())
        .catch((err: unknown) => this.log.warn({ err, job: this.name }, 'background job failed; retrying on the next run'))
        .finally(() => (this.running = undefined));
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
