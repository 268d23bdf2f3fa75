import { randomUUID } from 'node:crypto';
import type { Db } from '../../../platform/db/index.ts';
import type { GuardStore } from '../../../platform/guard/types.ts';
import type { Logger } from '../../../platform/logger.ts';
import { normalizeGhanaPhone } from '../../../shared/ghana/index.ts';
import { describeStatus } from '../domain/index.ts';
import type { CourierTracker, TrackedCourier } from '../orders/courier-tracker.ts';
import { courierWho, trackingEta, underWay } from './page.ts';
import { ussdRepository, type UssdOrderRow } from './ussd-repository.ts';

/** One callback of a USSD session, as Africa's Talking sends it (form fields of the same names). */
export interface UssdRequest {
  sessionId: string;
  serviceCode: string;
  phoneNumber: string;
  /** Everything the caller typed in this session, the steps joined by `*` ('' on the first callback). */
  text: string;
}

/** The most a USSD screen shows (the aggregator's limit, `CON `/`END ` included). */
export const USSD_SCREEN_LIMIT = 182;
/** Lookups one session may make in a minute: a session needs one. */
export const USSD_LOOKUPS_PER_SESSION = 3;
/** Lookups one phone may make in a minute, across sessions: a recipient mistyping, not a script. */
export const USSD_LOOKUPS_PER_PHONE = 5;

export const USSD_TEXT = {
  menu: 'CON Track a delivery: enter your order code',
  notFound:
    'END We found no delivery with that code for this phone number. Check the code and dial again.',
  empty: 'END No code was entered. Please dial again and enter your order code.',
  steps: 'END Please dial again and enter only your order code.',
  limited: 'END Too many attempts. Please try again in a few minutes.',
  busy: 'END Tracking is not available right now. Please try again later.',
} as const;

/** Characters a GSM-7 screen shows as one: printable ASCII without the escape table's `[]{}\^~|`. */
function gsmSafe(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\s/g, ' ')
    .replace(/[^\x20-\x7e]|[[\]{}\\^~|`]/g, '');
}

/** What the caller typed as a code, in the form references are matched in: upper case, letters and digits. */
export const codeForm = (typed: string): string => typed.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** The answer for a found order: its state, and while under way its expected time and courier, on one screen. */
export function statusScreen(
  order: UssdOrderRow,
  courier?: TrackedCourier['courier'],
  eta?: string,
): string {
  const ref = gsmSafe(order.order_reference).slice(0, 20);
  const head = `END Order ${ref}: ${describeStatus(order.status)}`;
  const candidates = [
    [head, eta, courier && `Courier: ${courierWho(courier)}.`],
    [head, eta],
    [head],
  ];
  for (const parts of candidates) {
    const screen = gsmSafe(parts.filter(Boolean).join(' '));
    if (screen.length <= USSD_SCREEN_LIMIT) return screen;
  }
  return gsmSafe(head).slice(0, USSD_SCREEN_LIMIT);
}

export interface UssdTrackingDeps {
  db: Db;
  guard: GuardStore;
  log: Logger;
  tracker?: CourierTracker | undefined;
}

/**
 * Recipients' USSD tracking: the menu, then one lookup by the order's reference and the caller's
 * phone. The protocol carries the whole session in `text`, so nothing is kept between callbacks
 * and nothing is written; a wrong code and a wrong phone get the same answer.
 */
export class UssdTracking {
  constructor(private readonly deps: UssdTrackingDeps) {}

  async answer(req: UssdRequest): Promise<string> {
    // The first callback, or a caller who sent nothing: the menu (there is nothing to look up).
    if (req.text === '') return USSD_TEXT.menu;
    const steps = req.text.split('*');
    if (steps.length > 1) return USSD_TEXT.steps;
    const code = codeForm(steps[0]!);
    if (code === '') return USSD_TEXT.empty;
    try {
      const phone = normalizeGhanaPhone(req.phoneNumber);
      if (!(await this.admitted(req.sessionId, phone ?? req.phoneNumber))) return USSD_TEXT.limited;
      const order = phone
        ? await ussdRepository.findForRecipient(this.deps.db, phone, code.slice(0, 100))
        : undefined;
      if (!order) return USSD_TEXT.notFound;
      if (!underWay(order)) return statusScreen(order);
      const courier = (await this.deps.tracker?.forOrders([order.id]))?.get(order.id);
      return statusScreen(order, courier?.courier, `${trackingEta(order, courier)}.`);
    } catch (err) {
      // The caller's screen is no place for a failure; the log is.
      this.deps.log.error({ err }, 'ussd tracking lookup failed');
      return USSD_TEXT.busy;
    }
  }

  /** Counts the lookup against its session and its phone (each in the shared 60-second window). */
  private async admitted(sessionId: string, phone: string): Promise<boolean> {
    const [bySession, byPhone] = await Promise.all([
      this.deps.guard.admit({
        keyId: `ussd:session:${sessionId}`,
        nonce: randomUUID(),
        access: 'read',
        limit: USSD_LOOKUPS_PER_SESSION,
      }),
      this.deps.guard.admit({
        keyId: `ussd:phone:${phone}`,
        nonce: randomUUID(),
        access: 'read',
        limit: USSD_LOOKUPS_PER_PHONE,
      }),
    ]);
    return bySession.kind === 'ok' && byPhone.kind === 'ok';
  }
}
