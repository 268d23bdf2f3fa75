import { createHmac, randomUUID } from 'node:crypto';
import type { Db } from '../../../platform/db/index.ts';
import { escapeHtml } from '../../../platform/http/html.ts';
import type { GuardStore } from '../../../platform/guard/types.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { Env } from '../../../platform/settings.ts';
import { normalizeGhanaPhone } from '../../../shared/ghana/index.ts';
import type { CourierTracker } from '../orders/courier-tracker.ts';
import type { OrderRow } from '../orders/repository.ts';
import { CALLBACK_SECRET, CALLBACK_SECRET_RULE } from './gateway-callback.ts';
import { underWay } from './page.ts';

/** The number recipients call and the secret of the voice provider's callback URL (both or neither). */
export interface MaskedCallSettings {
  /** Our virtual number in E.164 (+233 and nine digits): the one both sides see. */
  number: string;
  /** In the callback URL's path, and the key the orders' call codes are derived with. */
  secret: string;
}

/** CALL_MASKING_NUMBER and VOICE_CALLBACK_SECRET: both set turn masked calls on; one alone is a mistake. */
export function maskedCallSettings(env: Env, problems: string[]): MaskedCallSettings | undefined {
  const number = env.CALL_MASKING_NUMBER?.replace(/[\s-]/g, '') ?? '';
  const secret = env.VOICE_CALLBACK_SECRET ?? '';
  if (number === '' && secret === '') return undefined;
  const before = problems.length;
  if (!/^\+233\d{9}$/.test(number))
    problems.push('CALL_MASKING_NUMBER must be a Ghana number in E.164, +233 and nine digits');
  if (!CALLBACK_SECRET.test(secret))
    problems.push(`VOICE_CALLBACK_SECRET must be ${CALLBACK_SECRET_RULE}`);
  return problems.length === before ? { number, secret } : undefined;
}

/** Digits a caller keys in after the number (the tel: link dials them by itself). */
export const CALL_CODE_DIGITS = 6;

/** The order's call code: derived from its id with the secret, so it is neither stored nor guessable from the id. */
export function callCode(secret: string, orderId: string): string {
  const n = createHmac('sha256', secret).update(orderId).digest().readUInt32BE(0);
  return String(n % 10 ** CALL_CODE_DIGITS).padStart(CALL_CODE_DIGITS, '0');
}

/** A link that dials our number, waits for the answer (two pauses) and keys in the order's code and #. */
export const callLink = (settings: MaskedCallSettings, orderId: string): string =>
  `tel:${settings.number},,${callCode(settings.secret, orderId)}%23`;

/** Calls one phone may place in a minute: a recipient redialling, not a script. */
export const CALLS_PER_PHONE = 5;
/** The longest call we connect, in seconds. */
const MAX_CALL_SECONDS = 600;

// HTML's five escapes are XML's too.
const xml = escapeHtml;
const say = (text: string) => `<Say>${xml(text)}</Say>`;
const response = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Response>${body}</Response>`;

export const CALL_TEXT = {
  ask: 'Welcome. Enter your delivery call code, then the hash key.',
  noDigits: 'We did not receive a code. Please call again from the tracking page.',
  notFound:
    'We found no delivery on its way to this phone with that code. Please call from the phone the delivery was booked for.',
  noCourier: 'No courier has your delivery yet. Please try again once the tracking page shows one.',
  limited: 'Too many calls. Please try again in a few minutes.',
  busy: 'Calls are not available right now. Please try again later.',
  connecting: 'Connecting you to your courier.',
} as const;

/** One callback of a call, as Africa's Talking's voice API sends it (form fields of the same names). */
export interface VoiceRequest {
  isActive: string;
  sessionId: string;
  callerNumber: string;
  dtmfDigits: string;
}

export interface MaskedCallsDeps {
  db: Db;
  guard: GuardStore;
  log: Logger;
  tracker?: CourierTracker | undefined;
  settings: MaskedCallSettings;
  /** This callback's own URL (GetDigits sends the keyed digits back to it). */
  callbackUrl: string;
}

/**
 * Masked calls between a recipient and the courier carrying their parcel: the recipient calls our
 * number, keys in the order's call code (the tracking page's link does both), and, when the call
 * comes from the phone the order was booked for and a courier holds it, the provider connects them
 * with our number shown to each side. Nothing is written; each call is logged without numbers.
 */
export class MaskedCalls {
  constructor(private readonly deps: MaskedCallsDeps) {}

  async answer(req: VoiceRequest): Promise<string> {
    // The provider's notice that a call ended: nothing to say.
    if (req.isActive === '0') return response('');
    const digits = req.dtmfDigits.replace(/\D/g, '');
    if (req.dtmfDigits === '') {
      const ask = `<GetDigits timeout="20" finishOnKey="#" numDigits="${CALL_CODE_DIGITS}" callbackUrl="${xml(this.deps.callbackUrl)}">${say(CALL_TEXT.ask)}</GetDigits>`;
      return response(`${ask}${say(CALL_TEXT.noDigits)}`);
    }
    try {
      const phone = normalizeGhanaPhone(req.callerNumber);
      if (!(await this.admitted(phone ?? req.callerNumber)))
        return response(say(CALL_TEXT.limited));
      const order =
        phone && digits.length === CALL_CODE_DIGITS ? await this.find(phone, digits) : undefined;
      if (!order) return response(say(CALL_TEXT.notFound));
      const courierPhone = await this.deps.tracker?.phoneFor(order.id);
      if (!courierPhone) return response(say(CALL_TEXT.noCourier));
      this.deps.log.info(
        { orderId: order.id, sessionId: req.sessionId.slice(0, 64) },
        'masked call connected',
      );
      const dial = `<Dial phoneNumbers="${xml(courierPhone)}" callerId="${xml(this.deps.settings.number)}" record="false" sequential="true" maxDuration="${MAX_CALL_SECONDS}"/>`;
      return response(`${say(CALL_TEXT.connecting)}${dial}`);
    } catch (err) {
      this.deps.log.error({ err }, 'masked call lookup failed');
      return response(say(CALL_TEXT.busy));
    }
  }

  /** The phone's newest delivery under way whose call code is the one keyed in. */
  private async find(phone: string, digits: string): Promise<Pick<OrderRow, 'id'> | undefined> {
    const rows = await this.deps.db.query<Pick<OrderRow, 'id' | 'status'>>(
      'select id, status from delivery_orders where customer_phone = $1 order by created_at desc limit 20',
      [phone],
    );
    return rows.find((o) => underWay(o) && callCode(this.deps.settings.secret, o.id) === digits);
  }

  private async admitted(phone: string): Promise<boolean> {
    const verdict = await this.deps.guard.admit({
      keyId: `voice:phone:${phone}`,
      nonce: randomUUID(),
      access: 'read',
      limit: CALLS_PER_PHONE,
    });
    return verdict.kind === 'ok';
  }
}
