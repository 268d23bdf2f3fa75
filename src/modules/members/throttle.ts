import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { membersRepository as repo } from './repository.ts';

/**
 * Failed sign-ins counted in PostgreSQL, so that every instance sees the same counts: 5 failures
 * for one account, or 30 from one address, within 15 minutes lock further attempts until the oldest
 * failure leaves the window. Counted for unknown emails too, so a lock reveals nothing.
 */
export const SIGN_IN_LIMITS = { windowMs: 15 * 60_000, perAccount: 5, perAddress: 30 } as const;

const accountScope = (email: string) => `email:${email}`;
const addressScope = (ip: string) => `ip:${ip}`;

export class SignInThrottle {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  /** Throws RATE_LIMITED when the account or the address has failed too often lately. */
  async check(email: string, ip: string): Promise<void> {
    const now = this.clock();
    const since = new Date(now - SIGN_IN_LIMITS.windowMs);
    const counts = await repo.failuresSince(
      this.db,
      [accountScope(email), addressScope(ip)],
      since,
    );
    const account = counts.get(accountScope(email));
    const address = counts.get(addressScope(ip));
    const locked = [
      account && account.count >= SIGN_IN_LIMITS.perAccount ? account : undefined,
      address && address.count >= SIGN_IN_LIMITS.perAddress ? address : undefined,
    ]
      .filter((c) => c !== undefined)
      .map((c) => c.oldest.getTime() + SIGN_IN_LIMITS.windowMs - now);
    if (locked.length === 0) return;
    const seconds = Math.max(1, Math.ceil(Math.max(...locked) / 1000));
    const minutes = Math.ceil(seconds / 60);
    throw errors.rateLimited(
      `Too many failed sign-ins. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again, or reset your password.`,
      { 'retry-after': String(seconds) },
    );
  }

  async failed(email: string, ip: string): Promise<void> {
    const now = new Date(this.clock());
    await repo.recordFailure(this.db, [accountScope(email), addressScope(ip)], now);
    await repo.pruneFailures(this.db, new Date(now.getTime() - SIGN_IN_LIMITS.windowMs));
  }

  /** A successful sign-in forgives the account's failures (not the address's). */
  async succeeded(email: string): Promise<void> {
    await repo.clearFailures(this.db, accountScope(email));
  }
}
