import type { Queryable } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import { ledger } from '../ledger/index.ts';
import { approvalReasons } from './domain/approval.ts';
import { toDestination } from './domain/destinations.ts';
import { payeeFee } from './domain/fees.ts';
import { payeeAccounts, payoutCreatedJournal, sentAmount, splitOf } from './domain/journals.ts';
import { payoutsRepository as repo, type DestinationRow, type PayoutRow } from './repository.ts';
import { sendRepository as sends, UNSENT } from './send-repository.ts';
import { afterGrace, type PayoutSettings } from './settings.ts';

/** A payout cancelled because its destination was replaced, and the one made in its place. */
export interface Replacement {
  cancelled: string;
  replacement: PayoutRow;
}

/**
 * A payout pays the destination current when it is sent: once a payee's destination is replaced, its
 * payouts not yet sent are cancelled (their money owed again, by the same journal as a failure's) and
 * each is made again, with a new id (a reference never goes to two destinations), for the same lines
 * and run, against the current destination, waiting for approval while it cools.
 */
export class Replacements {
  constructor(
    private readonly deps: {
      clock: () => number;
      settings: PayoutSettings;
      /** Posts a cancelled payout's money back to the payee and releases its lines (the sender's, as for a failure). */
      release: (tx: Queryable, cancelled: PayoutRow, at: Date) => Promise<void>;
    },
  ) {}

  /** In the caller's transaction, with `destination` (the payee's current one) locked. */
  async replaceUnsent(
    tx: Queryable,
    destination: DestinationRow,
    at: Date,
  ): Promise<Replacement[]> {
    const done: Replacement[] = [];
    for (const old of await sends.unsentFor(tx, destination.payee, destination.version)) {
      const lines = await repo.lines(tx, old.id);
      const cancelled = await repo.transition(tx, old.id, UNSENT, 'cancelled', at);
      if (!cancelled) continue;
      await this.deps.release(tx, cancelled, at);
      // The fee its payee bears is the new destination's channel's.
      const split = splitOf(
        payeeAccounts(old.payee),
        lines,
        payeeFee(this.deps.settings.fees, old.payee, destination.kind),
      );
      const amount = sentAmount(split);
      // Below the minimum after that fee: not made again; its lines, released, wait for a later run.
      if (amount < this.deps.settings.minimumPesewas) continue;
      const reasons = approvalReasons(
        amount,
        destination.changed_at,
        this.deps.clock(),
        this.deps.settings,
      );
      const status = reasons.length > 0 ? 'awaiting_approval' : 'created';
      const replacement: PayoutRow = {
        ...old,
        id: newId('pout'),
        amount_pesewas: amount,
        payee_fee_pesewas: split.fee,
        destination: toDestination(destination),
        destination_version: destination.version,
        status,
        approval_reasons: reasons,
        approved_by: null,
        provider_reference: null,
        fee_pesewas: null,
        failure_reason: null,
        attempts: 0,
        sending_since: null,
        replaced_by: null,
        next_check_at: status === 'created' ? afterGrace(this.deps.settings, at) : null,
        checks: 0,
        created_at: at,
        updated_at: at,
      };
      await repo.insertPayout(tx, replacement, lines);
      await ledger.postJournal(tx, payoutCreatedJournal(replacement.id, split), at);
      await sends.markReplaced(tx, old.id, replacement.id);
      done.push({ cancelled: old.id, replacement });
    }
    return done;
  }
}
