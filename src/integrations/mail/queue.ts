import type { Db, Queryable } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import { WorkerLoop } from '../../platform/worker-loop.ts';
import type { MailMessage, Mailer } from './mailer.ts';

/** Wakes the mail worker after a commit that queued mail. */
export const MAIL_CHANNEL = 'mail_queue';

/** Wait before attempt 2, 3, …; the last one repeats until the limit. */
export const MAIL_BACKOFF_MS = [
  30_000,
  120_000,
  600_000,
  3_600_000,
  3 * 3_600_000,
  6 * 3_600_000,
] as const;
/** After this many failed attempts (about 16 hours) a message is dead: logged at error, never sent. */
export const MAIL_MAX_ATTEMPTS = 8;
/** A claimed message is another worker's again after this long (a worker that died mid-send); far above a send's timeouts (smtp.ts). */
export const MAIL_LEASE_MS = 5 * 60_000;
const BATCH = 10;
/** Finished messages deleted by one statement; a full batch has the next round prune again. */
export const MAIL_PRUNE_BATCH = 500;
/** How often the worker looks for finished messages past their retention. */
const PRUNE_EVERY_MS = 10 * 60_000;

export interface QueuedMail {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  attempts: number;
}

export const backoffMs = (attempts: number) =>
  MAIL_BACKOFF_MS[Math.min(attempts, MAIL_BACKOFF_MS.length) - 1]!;

/**
 * Durable mail. `send(q, message)` writes the message with the caller's Queryable, so it commits or
 * rolls back with the change that causes it; the worker then hands it to the mailer. Each step is
 * its own statement, and no transaction is open while the mailer works: claim (a lease, by moving
 * next_attempt_at on), send, record. A crash between sending and recording sends the message again
 * once the lease ends: delivery is at least once. A body holds sign-in links (tokens the members
 * module keeps only as hashes), so it is blanked once the message is sent or given up on.
 */
export class MailQueue {
  private readonly worker: WorkerLoop;
  private pruneAt = 0;

  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly clock: () => number,
    private readonly log: Logger,
    private readonly pollMs: number,
    /** How long sent and dead messages are kept. */
    private readonly retentionMs: number,
  ) {
    this.worker = new WorkerLoop(db, log, {
      name: 'mail-queue',
      channel: MAIL_CHANNEL,
      pollMs,
      round: () => this.round(),
    });
  }

  /** Queues `message` inside the caller's transaction (or at once, given the Db); sent after commit. */
  async send(q: Queryable, message: MailMessage): Promise<void> {
    await q.query(
      'insert into mail_queue (id, to_address, subject, body, next_attempt_at) values ($1, $2, $3, $4, $5)',
      [newId('mail'), message.to, message.subject, message.text, new Date(this.clock())],
    );
    q.notify(MAIL_CHANNEL);
  }

  /** Runs the worker: woken by commits that queue mail, polling every pollMs for retries coming due. */
  start(): void {
    if (this.pollMs > 0) this.worker.start();
  }

  async stop(): Promise<void> {
    await this.worker.stop();
  }

  /** Sends what is due and, now and then, prunes finished mail; true when a full batch may leave more. */
  private async round(): Promise<boolean> {
    const handled = await this.deliverDue();
    if (this.clock() >= this.pruneAt)
      this.pruneAt =
        this.clock() + ((await this.prune()) === MAIL_PRUNE_BATCH ? 0 : PRUNE_EVERY_MS);
    return handled >= BATCH;
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
        await this.db.query(
          "update mail_queue set status = 'dead', last_error = $2, body = '' where id = $1",
          [mail.id, error],
        );
        this.log.error(
          {
            err,
            mail: mail.id,
            to: mail.to_address,
            subject: mail.subject,
            attempts: mail.attempts,
          },
          'mail could not be sent; gave up',
        );
      } else {
        const retryAt = new Date(this.clock() + backoffMs(mail.attempts));
        await this.db.query(
          'update mail_queue set next_attempt_at = $2, last_error = $3 where id = $1',
          [mail.id, retryAt, error],
        );
        this.log.warn(
          { err, mail: mail.id, attempts: mail.attempts, retry_at: retryAt },
          'mail could not be sent; will retry',
        );
      }
      return;
    }
    await this.db.query(
      "update mail_queue set status = 'sent', sent_at = $2, last_error = null, body = '' where id = $1",
      [mail.id, new Date(this.clock())],
    );
  }

  /**
   * Deletes up to MAIL_PRUNE_BATCH sent and dead messages finished (sent, or last tried) longer than
   * the retention ago; answers how many. Bounded, so a long backlog is worked off over several rounds.
   */
  async prune(): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `with gone as (
         delete from mail_queue where id in (
           select id from mail_queue where status <> 'pending' and coalesce(sent_at, next_attempt_at) < $1 limit $2)
         returning 1)
       select count(*)::int as n from gone`,
      [new Date(this.clock() - this.retentionMs), MAIL_PRUNE_BATCH],
    );
    return rows[0]!.n;
  }

  /** Messages waiting (pending) and given up on (dead), for the metrics. */
  async backlog(): Promise<{ pending: number; dead: number }> {
    const rows = await this.db.query<{ status: string; n: number }>(
      "select status, count(*)::int as n from mail_queue where status <> 'sent' group by status",
    );
    const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
    return { pending: count('pending'), dead: count('dead') };
  }
}
