import type { Db } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import type { MailMessage, Mailer } from './mailer.ts';

export interface OutboxMail {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  created_at: Date;
}

/**
 * Development mail (no SMTP_URL): each message is kept in dev_mail_outbox, readable at /dev/mail,
 * and logged with its link, so a sign-up on a laptop can be finished without a mail server, and no
 * message is ever dropped silently.
 */
export class DevOutbox implements Mailer {
  readonly summary: string;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly publicBaseUrl: string,
  ) {
    this.summary = `mail: no SMTP_URL, so messages are kept in the development outbox at ${publicBaseUrl}/dev/mail`;
  }

  async send(message: MailMessage): Promise<void> {
    const id = newId('mail');
    await this.db.query(
      'insert into dev_mail_outbox (id, to_address, subject, body) values ($1, $2, $3, $4)',
      [id, message.to, message.subject, message.text],
    );
    this.log.info(
      {
        mail: id,
        to: message.to,
        subject: message.subject,
        link: `${this.publicBaseUrl}/dev/mail/${id}`,
      },
      'mail kept in the development outbox',
    );
  }

  async list(limit = 50): Promise<OutboxMail[]> {
    return this.db.query<OutboxMail>(
      'select id, to_address, subject, body, created_at from dev_mail_outbox order by id desc limit $1',
      [limit],
    );
  }

  /** Every message kept for one address, newest first. */
  async sentTo(toAddress: string): Promise<OutboxMail[]> {
    return this.db.query<OutboxMail>(
      'select id, to_address, subject, body, created_at from dev_mail_outbox where to_address = $1 order by id desc',
      [toAddress],
    );
  }

  async get(id: string): Promise<OutboxMail | undefined> {
    return (
      await this.db.query<OutboxMail>(
        'select id, to_address, subject, body, created_at from dev_mail_outbox where id = $1',
        [id],
      )
    )[0];
  }
}
