import type { SmsSender } from '../../integrations/sms/index.ts';
import {
  NOT_ON_WHATSAPP,
  WhatsAppError,
  type WhatsAppSender,
} from '../../integrations/whatsapp/index.ts';
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { WorkerLoop } from '../../platform/worker-loop.ts';
import { ledger } from '../ledger/index.ts';
import { messageRefundJournal } from './journals.ts';
import { messagesRepository as repo, type MessageRow } from './repository.ts';
import { MESSAGES_CHANNEL } from './service.ts';

/** Wait before attempt 2, 3, …: a message about a parcel on its way is worth little hours late. */
export const MESSAGE_BACKOFF_MS = [30_000, 120_000, 600_000, 1_800_000] as const;
/** SMS attempts before a message is given up (and its cost given back). */
export const SMS_MAX_ATTEMPTS = 5;
/**
 * WhatsApp is tried once: the SMS beside it carries the same code (and the link) and goes
 * regardless, so a retry would only repeat the code later. A crash before the call still sends it.
 */
export const WHATSAPP_MAX_ATTEMPTS = 1;
/** A claimed message is another sender's again after this long; far above the providers' timeouts. */
export const MESSAGE_LEASE_MS = 2 * 60_000;
const BATCH = 20;

const backoffMs = (attempts: number) =>
  MESSAGE_BACKOFF_MS[Math.min(attempts, MESSAGE_BACKOFF_MS.length) - 1]!;

/**
 * Sends recorded messages, exactly once as far as a provider without idempotency keys allows: each
 * is claimed first (committed: status sending, an attempt counted, a lease), the provider is called
 * outside any transaction, and the outcome is written by compare-and-set on that claim. A crash
 * after the provider took a message and before its outcome was written sends it again when the
 * lease ends: at least once, never lost.
 */
export class MessageSender {
  private readonly worker: WorkerLoop;

  constructor(
    private readonly db: Db,
    private readonly sms: SmsSender,
    private readonly whatsapp: WhatsAppSender | undefined,
    private readonly clock: () => number,
    private readonly log: Logger,
    pollMs: number,
  ) {
    this.worker = new WorkerLoop(db, log, {
      name: 'recipient-messages',
      channel: MESSAGES_CHANNEL,
      pollMs,
      round: async () => (await this.sendDue()) >= BATCH,
    });
  }

  start(): void {
    this.worker.start();
  }

  async stop(): Promise<void> {
    await this.worker.stop();
  }

  /** Sends the messages due now (or only `ids`, right after the commit that recorded them); answers how many were claimed. */
  async sendDue(ids?: readonly string[]): Promise<number> {
    if (ids?.length === 0) return 0;
    const now = this.clock();
    const claimed = await repo.claim(this.db, {
      now: new Date(now),
      leaseUntil: new Date(now + MESSAGE_LEASE_MS),
      limit: BATCH,
      ids,
    });
    await Promise.all(claimed.map((m) => this.send(m)));
    return claimed.length;
  }

  private async send(m: MessageRow): Promise<void> {
    let providerId: string | null = null;
    try {
      if (m.channel === 'sms') {
        const sent = await this.sms.send({
          to: m.to_number,
          body: m.body,
          from: m.sender_name ?? undefined,
        });
        providerId = sent.providerMessageId;
      } else if (this.whatsapp) {
        await this.whatsapp.sendCode({ to: m.to_number, code: m.body });
      } else {
        throw new Error('WhatsApp is no longer configured (WHATSAPP_PROVIDER)');
      }
    } catch (err) {
      await this.failed(m, err);
      return;
    }
    await repo.markSent(this.db, m, providerId, new Date(this.clock()));
  }

  private async failed(m: MessageRow, err: unknown): Promise<void> {
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 300);
    const max = m.channel === 'sms' ? SMS_MAX_ATTEMPTS : WHATSAPP_MAX_ATTEMPTS;
    if (m.attempts < max) {
      const retryAt = new Date(this.clock() + backoffMs(m.attempts));
      await repo.markRetry(this.db, m, error, retryAt);
      this.log.warn(
        { err, message: m.id, order: m.order_id, attempts: m.attempts, retry_at: retryAt },
        'a recipient message could not be sent; will retry',
      );
      return;
    }
    const at = new Date(this.clock());
    await this.db.transaction(async (tx) => {
      if (!(await repo.markFailed(tx, m, error)) || m.cost_pesewas === 0) return;
      await ledger.postJournal(tx, messageRefundJournal(m.partner_id, m.id, m.cost_pesewas), at);
    });
    // A recipient without WhatsApp is ordinary (the SMS reached them); an SMS given up is for operations.
    const notOnWhatsApp = err instanceof WhatsAppError && err.metaCode === NOT_ON_WHATSAPP;
    const level = m.channel === 'sms' ? 'error' : notOnWhatsApp ? 'info' : 'warn';
    this.log[level](
      { err, message: m.id, order: m.order_id, channel: m.channel, attempts: m.attempts },
      'a recipient message could not be sent; gave up and refunded its cost',
    );
  }
}
