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
export { MailQueue, MAIL_BACKOFF_MS, MAIL_MAX_ATTEMPTS, MAIL_LEASE_MS, MAIL_PRUNE_BATCH } from './queue.ts';
export { registerMailGauges } from './metrics.ts';

export interface MailIntegration {
  mailer: Mailer;
  /** Mounts /dev/mail when mail is kept in the development outbox; nothing otherwise. */
  registerPages(app: FastifyInstance): void;
  close(): void;
}

const LOCAL_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether the server's public address is this machine (a developer's, or a test's). */
export function isLocalAddress(publicBaseUrl: string): boolean {
  return LOCAL_HOSTS.test(new URL(publicBaseUrl).hostname);
}

/** SMTP when SMTP_URL is set, the development outbox otherwise. */
export function createMail(settings: MailSettings, db: Db, log: Logger, publicBaseUrl: string): MailIntegration {
  if (settings.smtpUrl) {
    const smtp = new SmtpMailer(settings.smtpUrl, settings.from);
    return { mailer: smtp, registerPages: () => {}, close: () => smtp.close() };
  }
  const outbox = new DevOutbox(db, log, publicBaseUrl);
  const pageOpen = settings.devMailPage === 'on' || (settings.devMailPage === 'auto' && isLocalAddress(publicBaseUrl));
  if (!pageOpen) {
    // Anyone reaching /dev/mail could read every reset link: on a reachable address it stays shut.
    log.warn(
      { publicBaseUrl },
      `SMTP_URL is unset: mail is kept in the development outbox (table dev_mail_outbox) and never sent, and /dev/mail is not served because PUBLIC_BASE_URL (${publicBaseUrl}) is not this machine. Set SMTP_URL so that people receive their mail.`,
    );
  } else if (settings.devMailPage === 'on' && !isLocalAddress(publicBaseUrl)) {
    log.warn({ publicBaseUrl }, `DEV_MAIL_PAGE=on: /dev/mail shows every message, sign-in and password-reset links included, to anyone who reaches ${publicBaseUrl}. For demos only.`);
  }
  return { mailer: outbox, registerPages: (app) => (pageOpen ? registerDevMailPages(app, outbox) : undefined), close: () => {} };
}
