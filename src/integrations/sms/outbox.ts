import type { Db } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import type { SmsMessage, SmsSender, SmsSent } from './sender.ts';

export interface OutboxSms {
  id: string;
  to_number: string;
  body: string;
  created_at: Date;
}

/**
 * Development text messages (no SMS_PROVIDER): each is kept in dev_sms_outbox, readable at /dev/sms,
 * and logged with its link, so a courier can sign in on a laptop without a provider, and no message
 * is ever dropped silently.
 */
export class DevSmsOutbox implements SmsSender {
  readonly summary: string;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly publicBaseUrl: string,
  ) {
    this.summary = `sms: no SMS_PROVIDER, so text messages are kept in the development outbox at ${publicBaseUrl}/dev/sms`;
  }

  async send(message: SmsMessage): Promise<SmsSent> {
    const id = newId('sms');
    await this.db.query('insert into dev_sms_outbox (id, to_number, body) values ($1, $2, $3)', [
      id,
      message.to,
      message.body,
    ]);
    this.log.info(
      { sms: id, to: message.to, link: `${this.publicBaseUrl}/dev/sms` },
      'text message kept in the development outbox',
    );
    return { providerMessageId: id };
  }

  async list(limit = 50): Promise<OutboxSms[]> {
    return this.db.query<OutboxSms>(
      'select id, to_number, body, created_at from dev_sms_outbox order by id desc limit $1',
      [limit],
    );
  }

  /** Every message kept for one number, newest first. */
  async sentTo(toNumber: string): Promise<OutboxSms[]> {
    return this.db.query<OutboxSms>(
      'select id, to_number, body, created_at from dev_sms_outbox where to_number = $1 order by id desc',
      [toNumber],
    );
  }
}
