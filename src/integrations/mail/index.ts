import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from './mailer.ts';
import { DevOutbox } from './outbox.ts';
import { registerDevMailPages } from './page.ts';
import type { MailSettings } from './settings.ts';
import { SmtpMailer } from './smtp.ts';

export type { MailMessage, Mailer } from './mailer.ts';
export { mailSettings, type MailSettings } from './settings.ts';
export { DevOutbox } from './outbox.ts';
export { SmtpMailer } from './smtp.ts';
export { MailQueue, MAIL_BACKOFF_MS, MAIL_MAX_ATTEMPTS, MAIL_LEASE_MS } from './queue.ts';
export { registerMailGauges } from './metrics.ts';

export interface MailIntegration {
  mailer: Mailer;
  /** Mounts /dev/mail when mail is kept in the development outbox; nothing otherwise. */
  registerPages(app: FastifyInstance): void;
  close(): void;
}

/** SMTP when SMTP_URL is set, the development outbox otherwise. */
export function createMail(settings: MailSettings, db: Db, log: Logger, publicBaseUrl: string): MailIntegration {
  if (settings.smtpUrl) {
    const smtp = new SmtpMailer(settings.smtpUrl, settings.from);
    return { mailer: smtp, registerPages: () => {}, close: () => smtp.close() };
  }
  const outbox = new DevOutbox(db, log, publicBaseUrl);
  return { mailer: outbox, registerPages: (app) => registerDevMailPages(app, outbox), close: () => {} };
}
