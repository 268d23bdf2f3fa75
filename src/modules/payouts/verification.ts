import type { TransferProvider } from '../../integrations/transfers/types.ts';
import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { payeeKey, toDestination, verdictOf, type PayeeKind } from './domain/destinations.ts';
import { destinationRepository as destinations } from './destination-repository.ts';
import { payoutsRepository as repo, type DestinationRow } from './repository.ts';
import { sendRepository as sends } from './send-repository.ts';

/** Unverified destinations the payouts job checks per tick. */
const VERIFY_BATCH = 50;

/**
 * Recipients verified before money goes: a new destination is saved `unverified`; then, outside any
 * transaction, the provider resolves the account's registered name and registers it as a recipient;
 * the verdict is applied by compare-and-set on the destination's version (a newer one is never given
 * an older one's verdict). A matching name makes it `verified`; a mismatch, an unresolvable name or a
 * refused account `needs_review`, paid only once a finance operator who did not set it accepts it.
 * A provider that is down leaves it `unverified`, and the payouts job asks again.
 */
export class DestinationVerifier {
  constructor(
    private readonly deps: { db: Db; clock: () => number; log: Logger; provider: TransferProvider },
  ) {}

  /** Verifies this version of the payee's destination if it is still current and unverified; answers the destination as it is after. */
  async verify(payee: string, version: number): Promise<DestinationRow | undefined> {
    const d = await repo.destination(this.deps.db, payee);
    if (!d || d.version !== version || d.verification !== 'unverified') return d;
    const check = await this.deps.provider
      .registerRecipient(toDestination(d))
      .catch((err: unknown) => {
        this.deps.log.warn(
          { err, payee },
          'destination verification failed at the provider; the payouts job asks again',
        );
        return undefined;
      });
    if (!check) return d;
    const verdict = verdictOf(d.name, check);
    const applied = await this.deps.db.transaction(async (tx) => {
      const row = await destinations.applyVerdict(tx, payee, version, verdict);
      if (row?.verification === 'verified') await sends.dueNow(tx, payee, this.now());
      return row;
    });
    if (verdict.verification === 'needs_review')
      this.deps.log.warn(
        { payee, reason: verdict.reviewReason },
        'payout destination needs review: nothing is paid to it until an operator accepts it',
      );
    return applied ?? repo.destination(this.deps.db, payee);
  }

  /** The payouts job: destinations still unverified (the provider was down, the process stopped), oldest first. */
  async verifyPending(limit = VERIFY_BATCH): Promise<number> {
    const due = await destinations.unverified(this.deps.db, limit);
    for (const d of due) await this.verify(d.payee, d.version);
    return due.length;
  }

  /**
   * A finance operator accepts a destination that needs review, after looking at both names: the
   * version they saw, and not one of the operators who set it (its proposer and approver).
   */
  async accept(kind: PayeeKind, id: string, version: number, by: string): Promise<DestinationRow> {
    const payee = payeeKey(kind, id);
    const d = await repo.destination(this.deps.db, payee);
    if (!d) throw errors.payeeNotFound(`No destination for ${kind} ${id}.`);
    if (d.version !== version)
      throw errors.invalidTransition(
        `Version ${version} is no longer the destination of ${kind} ${id} (it is version ${d.version}): review the current one.`,
      );
    if (d.verification !== 'needs_review')
      throw errors.invalidTransition(
        `The destination of ${kind} ${id} is ${d.verification}, not waiting for review.`,
      );
    if (d.set_by.includes(by))
      throw errors.sameOperator(
        'A destination that needs review is accepted by a finance operator who neither proposed nor approved it.',
      );
    const accepted = await this.deps.db.transaction(async (tx) => {
      const row = await destinations.accept(tx, payee, version, by);
      if (row) await sends.dueNow(tx, payee, this.now());
      return row;
    });
    if (!accepted)
      throw errors.invalidTransition(
        `The destination of ${kind} ${id} changed while it was being accepted: review it again.`,
      );
    return accepted;
  }

  private now(): Date {
    return new Date(this.deps.clock());
  }
}
