import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { isLocalAddress } from '../mail/index.ts';
import { HubtelSms } from './hubtel.ts';
import { DevSmsOutbox } from './outbox.ts';
import { registerDevSmsPage } from './page.ts';
import type { SmsSender } from './sender.ts';
import type { SmsSettings } from './settings.ts';

export { SmsError, type SmsMessage, type SmsSender } from './sender.ts';
export { HubtelSms, HUBTEL_SMS_URL, type HubtelSmsConfig } from './hubtel.ts';
export { DevSmsOutbox } from './outbox.ts';
export { smsSettings, type SmsSettings } from './settings.ts';

export interface SmsIntegration {
  sender: SmsSender;
  /** Mounts /dev/sms when messages are kept in the development outbox (and the page may open); nothing otherwise. */
  registerPages(app: FastifyInstance): void;
}

/** Hubtel when SMS_PROVIDER=hubtel, the development outbox otherwise (never a silent drop). */
export function createSms(settings: SmsSettings, db: Db, log: Logger, publicBaseUrl: string): SmsIntegration {
  if (settings.hubtel) return { sender: new HubtelSms(settings.hubtel), registerPages: () => {} };
  const outbox = new DevSmsOutbox(db, log, publicBaseUrl);
  const pageOpen = settings.devSmsPage === 'on' || (settings.devSmsPage === 'auto' && isLocalAddress(publicBaseUrl));
  if (!pageOpen) {
    // Anyone reaching /dev/sms could read every sign-in code: on a reachable address it stays shut.
    log.warn(
      { publicBaseUrl },
      `SMS_PROVIDER is unset: text messages are kept in the development outbox (table dev_sms_outbox) and never sent, and /dev/sms is not served because PUBLIC_BASE_URL (${publicBaseUrl}) is not this machine. Set SMS_PROVIDER=hubtel so that couriers receive their codes.`,
    );
  } else if (settings.devSmsPage === 'on' && !isLocalAddress(publicBaseUrl)) {
    log.warn({ publicBaseUrl }, `DEV_SMS_PAGE=on: /dev/sms shows every text message, sign-in codes included, to anyone who reaches ${publicBaseUrl}. For demos only.`);
  }
  return { sender: outbox, registerPages: (app) => (pageOpen ? registerDevSmsPage(app, outbox) : undefined) };
}
