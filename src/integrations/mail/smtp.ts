import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from './mailer.ts';

/** The longest waits of one send: to connect, for the server's greeting, and for any answer after. */
export const SMTP_TIMEOUTS_MS = { connection: 30_000, greeting: 30_000, socket: 60_000 } as const;

/** Mail through an SMTP server (SMTP_URL), with nodemailer. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  readonly summary: string;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    // Bounded waits (nodemailer's own allow 2 min to connect and 10 min of silence): a send always
    // ends well within the mail queue's lease, so no other worker takes the message meanwhile.
    this.transport = nodemailer.createTransport({
      url,
      connectionTimeout: SMTP_TIMEOUTS_MS.connection,
      greetingTimeout: SMTP_TIMEOUTS_MS.greeting,
      socketTimeout: SMTP_TIMEOUTS_MS.socket,
    });
    const parsed = new URL(url);
    // The host only: the URL may carry credentials.
    this.summary = `mail: sent through SMTP at ${parsed.hostname}:${parsed.port || (parsed.protocol === 'smtps:' ? 465 : 587)}`;
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }

  close(): void {
    this.transport.close();
  }
}
