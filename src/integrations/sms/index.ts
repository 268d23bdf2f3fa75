import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { isLocalAddress } from '../../platform/http/loopback.ts';
import { HubtelSms } from './hubtel.ts';
import { DevSmsOutbox } from './outbox.ts';
import { registerDevSmsPage } from './page.ts';
import type { SmsSender } from './sender.ts';
import type { SmsSettings } from './settings.ts';

export { SmsError, type SmsMessage, type SmsSender, type SmsSent } from './sender.ts';
export { HubtelSms, HUBTEL_SMS_URL, type HubtelSmsConfig } from './hubtel.ts';
export { DevSmsOutbox } from './outbox.ts';
export { smsSettings, type SmsSettings } from './settings.ts';

export interface SmsIntegration {
  sender: SmsSender;
  /** The development outbox, when messages are kept there rather than sent. */
  outbox?: DevSmsOutbox;
  /** Mounts /dev/sms when messages are kept in the development outbox (and the page may open); nothing otherwise. */
  registerPages(app: FastifyInstance): void;
}

/** Hubtel when SMS_PROVIDER=hubtel, the development outbox otherwise (never a silent drop). */
export function createSms(
  settings: SmsSettings,
  db: Db,
  log: Logger,
  publicBaseUrl: string,
): SmsIntegration {
  if (settings.hubtel) return { sender: new HubtelSms(settings.hubtel), registerPages: () => {} };
  const outbox = new DevSmsOutbox(db, log, publicBaseUrl);
  const mode = settings.devSmsPage;
  // Anyone reaching /dev/sms could read every sign-in code: by default it answers this machine only.
  if (mode === 'on') {
    log.warn(
      { publicBaseUrl },
      `DEV_SMS_PAGE=on: /dev/sms shows every text message, sign-in codes included, to anyone who reaches ${publicBaseUrl}. For demos only.`,
    );
  } else if (!isLocalAddress(publicBaseUrl)) {
    log.warn(
      { publicBaseUrl },
      `SMS_PROVIDER is unset: text messages are kept in the development outbox (table dev_sms_outbox) and never sent; /dev/sms is not served to other machines (${mode === 'off' ? 'nor to this one: DEV_SMS_PAGE=off' : 'it answers loopback requests only'}). Set SMS_PROVIDER=hubtel so that couriers receive their codes.`,
    );
  }
  return {
    sender: outbox,
    outbox,
    registerPages: (app) =>
      mode === 'off' ? undefined : registerDevSmsPage(app, outbox, { anyone: mode === 'on' }),
  };
}
