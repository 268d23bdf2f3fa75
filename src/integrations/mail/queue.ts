import type { Db, Queryable } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import { trackJob } from '../../platform/metrics/jobs.ts';
import type { MailMessage, Mailer } from './mailer.ts';

/** Wakes the mail worker after a commit that queued mail. */
export const MAIL_CHANNEL = 'mail_queue';

/** Wait before attempt 2, 3, …; the last one repeats until the limit. */
export const MAIL_BACKOFF_MS = [30_000, 120_000, 600_000, 3_600_000, 3 * 3_600_000, 6 * 3_600_000] as const;
/** After this many failed attempts (about 16 hours) a message is dead: logged at error, never sent. */
export const MAIL_MAX_ATTEMPTS = 8;
/** A claimed message is another worker's again after this long (a worker that died mid-send); far above a send's timeouts (smtp.ts). */
export const MAIL_LEASE_MS = 5 * 60_000;
const BATCH = 10;

export interface QueuedMail {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  attempts: number;
}

export const backoffMs = (attempts: number) => MAIL_BACKOFF_MS[Math.min(attempts, MAIL_BACKOFF_MS.length) - 1]!;

/**
 * Durable mail. `send(q, message)` writes the message with the caller's Queryable, so it commits or
 * rolls back with the change that causes it; the worker then hands it to the mailer. Each step is
 * its own statement, and no transaction is open while the mailer works: claim (a lease, by moving
 * next_attempt_at on), send, record. A crash between sending and recording sends the message again
 * once the lease ends: delivery is at least once. A body holds sign-in links (tokens the members
 * module keeps only as hashes), so it is blanked once the message is sent or given up on.
 */
export class MailQueue {
  private loop: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;
  private notified = false;
  private unlisten: Promise<(() => Promise<void>) | undefined> | undefined;

  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly clock: () => number,
    private readonly log: Logger,
    private readonly pollMs: number,
  ) {}

  /** Queues `message` inside the caller's transaction (or at once, given the Db); sent after commit. */
  async send(q: Queryable, message: MailMessage): Promise<void> {
    await q.query('insert into mail_queue (id, to_address, subject, body, next_attempt_at) values ($1, $2, $3, $4, $5)', [
      newId('mail'),
      message.to,
      message.subject,
      message.text,
      new Date(this.clock()),
    ]);
    q.notify(MAIL_CHANNEL);
  }

  /** Runs the worker: woken by commits that queue mail, polling every pollMs for retries coming due. */
  start(): void {
    if (this.pollMs <= 0) return;
    this.stopping = false;
    this.unlisten ??= this.db
      .listen(MAIL_CHANNEL, () => {
        this.notified = true;
        this.wake?.();
      })
      .catch((err: unknown) => {
        this.log.warn({ err }, 'could not listen for queued mail; polling only');
        return undefined;
      });
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await (await this.unlisten)?.();
    this.unlisten = undefined;
    await this.loop;
    this.loop = undefined;
  }

  private async run(): Promise<void> {
    const tracked = trackJob('mail-queue', this.pollMs);
    while (!this.stopping) {
      this.notified = false;
      let handled = 0;
      try {
        handled = await this.deliverDue();
        tracked.succeeded();
      } catch (err) {
        this.log.warn({ err }, 'mail delivery round failed; retrying');
      }
      if (handled < BATCH && !this.stopping && !this.notified) {
        await new Promise<void>((r) => {
          this.wake = r;
          setTimeout(r, this.pollMs).unref();
        });
        this.wake = undefined;
      }
    }
  }

  /** Claims the mail due now, sends each and records the outcome; answers how many were claimed. */
  async deliverDue(): Promise<number> {
    const now = this.clock();
    const claimed = await this.db.query<QueuedMail>(
      `update mail_queue set next_attempt_at = $2, attempts = attempts + 1
        where id in (select id from mail_queue where status = 'pending' and next_attempt_at <= $1
                      order by next_attempt_at limit $3 for update skip locked)
        returning id, to_address, subject, body, attempts`,
      [new Date(now), new Date(now + MAIL_LEASE_MS), BATCH],
    );
    // Side by side: the batch takes as long as its slowest send, well within the lease.
    await Promise.all(claimed.map((mail) => this.deliver(mail)));
    return claimed.length;
  }

  private async deliver(mail: QueuedMail): Promise<void> {
    try {
      await this.mailer.send({ to: mail.to_address, subject: mail.subject, text: mail.body });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      if (mail.attempts >= MAIL_MAX_ATTEMPTS) {
        await this.db.query("update mail_queue set status = 'dead', last_error = $2, body = '' where id = $1", [mail.id, error]);
        this.log.error({ err, mail: mail.id, to: mail.to_address, subject: mail.subject, attempts: mail.attempts }, 'mail could not be sent; gave up');
      } else {
        const retryAt = new Date(this.clock() + backoffMs(mail.attempts));
        await this.db.query('update mail_queue set next_attempt_at = $2, last_error = $3 where id = $1', [mail.id, retryAt, error]);
        this.log.warn({ err, mail: mail.id, attempts: mail.attempts, retry_at: retryAt }, 'mail could not be sent; will retry');
      }
      return;
    }
    await this.db.query("update mail_queue set status = 'sent', sent_at = $2, last_error = null, body = '' where id = $1", [mail.id, new Date(this.clock())]);
  }

  /** Messages waiting (pending) and given up on (dead), for the metrics. */
  async backlog(): Promise<{ pending: number; dead: number }> {
    const rows = await this.db.query<{ status: string; n: number }>("select status, count(*)::int as n from mail_queue where status <> 'sent' group by status");
    const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
    return { pending: count('pending'), dead: count('dead') };
  }
}
