import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import { cleanCourierInput } from './domain/courier.ts';
import {
  CODE_TTL_MS,
  codeMatches,
  codeMessage,
  hashCode,
  MAX_CODE_ATTEMPTS,
  newCode,
  THROTTLE,
  throttleWaitSeconds,
} from './domain/sign-in-code.ts';
import type { CourierRow } from './repository.ts';
import type { CouriersService } from './service.ts';
import { signInRepository as repo } from './sign-in-repository.ts';

/** The port couriers need to reach a phone: the app passes its SMS sender in. */
export type SendText = (message: { to: string; body: string }) => Promise<void>;

const WRONG =
  'That code is wrong or has expired. Check the number and the code, or ask for a new code.';

/**
 * Couriers sign in with their phone number and a one-time code sent by text message. Every request
 * is answered alike whether the number is a courier's or not (no enumeration): it is recorded and
 * throttled the same way, and the message leaves after the answer, never inside a transaction.
 */
export class CourierSignIn {
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      db: Db;
      clock: () => number;
      couriers: CouriersService;
      sendText: SendText;
      log: Logger;
    },
  ) {}

  /** Records the request and, for an active courier, sends a fresh code. Answers the number as normalised. */
  async requestCode(phoneInput: string, ip: string): Promise<{ phone: string }> {
    const { db, clock } = this.deps;
    const { value, problems } = cleanCourierInput({ phone: phoneInput });
    if (problems.length) throw errors.validation(`Invalid phone: ${problems[0]!.issue}.`, problems);
    const phone = value.phone!;
    const now = clock();
    await repo.prune(db, new Date(now - 24 * 3_600_000));
    const recent = await repo.recentRequests(db, {
      phone,
      ip,
      since: new Date(now - THROTTLE.windowMs),
      limit: THROTTLE.perAddress,
    });
    const wait = Math.max(
      throttleWaitSeconds(recent.phone, THROTTLE.perPhone, THROTTLE.windowMs, now),
      throttleWaitSeconds(recent.ip, THROTTLE.perAddress, THROTTLE.windowMs, now),
    );
    if (wait > 0)
      throw errors.tooManyAttempts(
        `Too many codes were asked for. Try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? 's' : ''}.`,
        wait,
      );
    const courier = await this.deps.couriers.byPhone(phone);
    const id = newId('csc');
    const code = courier?.active ? newCode() : undefined;
    await repo.insert(db, {
      id,
      phone,
      courierId: code ? courier!.id : null,
      codeHash: code ? hashCode(id, code) : null,
      ip,
      now: new Date(now),
      expiresAt: new Date(now + CODE_TTL_MS),
    });
    if (code) this.deliver({ to: phone, body: codeMessage(code) }, id);
    return { phone };
  }

  /** The courier whose live code this is, the code used up; INVALID_CREDENTIALS otherwise (counted as a wrong try). */
  async verify(phoneInput: string, code: string): Promise<CourierRow> {
    const { db, clock } = this.deps;
    const { value, problems } = cleanCourierInput({ phone: phoneInput });
    if (problems.length) throw errors.invalidCredentials(WRONG);
    const now = new Date(clock());
    const row = await repo.latestLive(db, value.phone!, now);
    if (!row || row.attempts >= MAX_CODE_ATTEMPTS) throw errors.invalidCredentials(WRONG);
    if (!codeMatches(row.id, code, row.code_hash)) {
      await repo.countWrongTry(db, row.id);
      throw errors.invalidCredentials(WRONG);
    }
    if (!(await repo.use(db, row.id, now, MAX_CODE_ATTEMPTS)))
      throw errors.invalidCredentials(WRONG);
    const courier = await this.deps.couriers.get(row.courier_id);
    // Deactivated since the code was sent.
    if (!courier.active) throw errors.invalidCredentials(WRONG);
    return courier;
  }

  /** Resolves once every message handed over so far has been sent or has failed (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.sending]);
  }

  /** Sends after the answer, so a courier's number takes no longer to answer than anyone else's. */
  private deliver(message: { to: string; body: string }, requestId: string): void {
    const sending = this.deps
      .sendText(message)
      .catch((err: unknown) =>
        this.deps.log.error({ err, request: requestId }, 'courier sign-in code not sent'),
      )
      .finally(() => this.sending.delete(sending));
    this.sending.add(sending);
  }
}
