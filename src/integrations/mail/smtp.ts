import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from './mailer.ts';

/** Mail through an SMTP server (SMTP_URL), with nodemailer. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  readonly summary: string;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
    const parsed = new URL(url);
    // The host only: the URL may carry credentials.
    this.summary = `mail: sent through SMTP at ${parsed.hostname}:${parsed.port || (parsed.protocol === 'smtps:' ? 465 : 587)}`;
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
  }

  close(): void {
    this.transport.close();
  }
}
