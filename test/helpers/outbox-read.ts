// Tests read the text messages and mail the platform kept in its development outboxes through the
// outboxes themselves (`app.platform.sms.outbox`, `app.platform.mail.outbox`), not SQL on their
// tables. Every list is newest first, as the outboxes' own pages show them.
import type { OutboxMail } from '../../src/integrations/mail/outbox.ts';
import type { OutboxSms } from '../../src/integrations/sms/outbox.ts';
import type { TestPlatform } from './harness.ts';

type Reader = Pick<TestPlatform, 'app'>;

function smsOutbox(p: Reader) {
  const outbox = p.app.platform.sms.outbox;
  if (!outbox) throw new Error('text messages are sent through a provider, not kept in the outbox');
  return outbox;
}

function mailOutbox(p: Reader) {
  const outbox = p.app.platform.mail.outbox;
  if (!outbox) throw new Error('mail is sent over SMTP, not kept in the outbox');
  return outbox;
}

/** Every text message kept, newest first. */
export async function allTexts(p: Reader): Promise<OutboxSms[]> {
  return smsOutbox(p).list(Number.MAX_SAFE_INTEGER);
}

/** The text messages kept for one number, newest first. */
export async function textsTo(p: Reader, toNumber: string): Promise<OutboxSms[]> {
  return smsOutbox(p).sentTo(toNumber);
}

/** Every message mailed, newest first. */
export async function allMail(p: Reader): Promise<OutboxMail[]> {
  return mailOutbox(p).list(Number.MAX_SAFE_INTEGER);
}

/** The messages mailed to one address, newest first. */
export async function mailTo(p: Reader, toAddress: string): Promise<OutboxMail[]> {
  return mailOutbox(p).sentTo(toAddress);
}
