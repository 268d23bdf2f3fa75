import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/index.ts';
import { isLocalAddress } from '../../platform/http/loopback.ts';
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
export {
  MailQueue,
  MAIL_BACKOFF_MS,
  MAIL_MAX_ATTEMPTS,
  MAIL_LEASE_MS,
  MAIL_PRUNE_BATCH,
} from './queue.ts';
export { registerMailGauges } from './metrics.ts';

export interface MailIntegration {
  mailer: Mailer;
  /** The development outbox, when mail is kept there rather than sent. */
  outbox?: DevOutbox;
  /** Mounts /dev/mail when mail is kept in the development outbox; nothing otherwise. */
  registerPages(app: FastifyInstance): void;
  close(): void;
}

/** SMTP when SMTP_URL is set, the development outbox otherwise. */
export function createMail(
  settings: MailSettings,
  db: Db,
  log: Logger,
  publicBaseUrl: string,
): MailIntegration {
  if (settings.smtpUrl) {
    const smtp = new SmtpMailer(settings.smtpUrl, settings.from);
    return { mailer: smtp, registerPages: () => {}, close: () => smtp.close() };
  }
  const outbox = new DevOutbox(db, log, publicBaseUrl);
  const mode = settings.devMailPage;
  // Anyone reaching /dev/mail could read every reset link: by default it answers this machine only.
  if (mode === 'on') {
    log.warn(
      { publicBaseUrl },
      `DEV_MAIL_PAGE=on: /dev/mail shows every message, sign-in and password-reset links included, to anyone who reaches ${publicBaseUrl}. For demos only.`,
    );
  } else if (!isLocalAddress(publicBaseUrl)) {
    log.warn(
      { publicBaseUrl },
      `SMTP_URL is unset: mail is kept in the development outbox (table dev_mail_outbox) and never sent; /dev/mail is not served to other machines (${mode === 'off' ? 'nor to this one: DEV_MAIL_PAGE=off' : 'it answers loopback requests only'}). Set SMTP_URL so that people receive their mail.`,
    );
  }
  return {
    mailer: outbox,
    outbox,
    registerPages: (app) =>
      mode === 'off' ? undefined : registerDevMailPages(app, outbox, { anyone: mode === 'on' }),
    close: () => {},
  };
}
