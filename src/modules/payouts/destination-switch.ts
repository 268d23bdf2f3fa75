import type { PayoutDestination } from '../../integrations/transfers/types.ts';
import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { payeeKey, type PayeeKind } from './domain/destinations.ts';
import { destinationRepository as destinations } from './destination-repository.ts';
import type { Replacement } from './replacements.ts';
import { payoutsRepository as repo, type DestinationRow } from './repository.ts';
import { sendRepository as sends } from './send-repository.ts';
import type { PayoutSender } from './sender.ts';
import type { DestinationVerifier } from './verification.ts';

/** A destination replaced: the one before (if any), the new one (as verified after), and the payouts re-created for it. */
export interface Switched {
  previous: DestinationRow | undefined;
  saved: DestinationRow;
  replaced: Replacement[];
}

/**
 * Every way a payee's destination changes (an operator's approved change, a partner's own change on
 * the dashboard) goes through here. In one transaction, with the destination's row locked: refused
 * while a payout to the payee is `sending` (its transfer is on its way to the current destination:
 * 409 PAYOUT_SENDING, try again once it is answered), the new version is saved unverified, and the
 * payee's unsent payouts are cancelled and made again against it. Then, outside the transaction, the
 * provider verifies it.
 */
export class DestinationSwitch {
  constructor(
    private readonly deps: {
      db: Db;
      clock: () => number;
      sender: PayoutSender;
      verifier: DestinationVerifier;
    },
  ) {}

  async replace(
    kind: PayeeKind,
    id: string,
    d: PayoutDestination,
    o: {
      resolvedName: string | null;
      by: string;
      setBy: string[];
      inside?: (tx: Queryable, s: Switched) => Promise<void>;
    },
  ): Promise<Switched> {
    const payee = payeeKey(kind, id);
    const switched = await this.deps.db.transaction(async (tx) => {
      const previous = await destinations.lock(tx, payee);
      const sending = await sends.sendingTo(tx, payee);
      if (sending)
        throw errors.payoutSending(
          `Payout ${sending} to ${kind} ${id} is being handed to the transfer provider; change the destination once it is answered (about a minute).`,
        );
      const at = new Date(this.deps.clock());
      const saved = await repo.saveDestination(
        tx,
        kind,
        id,
        d,
        { resolvedName: o.resolvedName, by: o.by, setBy: o.setBy },
        at,
      );
      const s: Switched = {
        previous,
        saved,
        replaced: await this.deps.sender.replaceUnsent(tx, saved, at),
      };
      await o.inside?.(tx, s);
      return s;
    });
    const verified = await this.deps.verifier.verify(payee, switched.saved.version);
    return { ...switched, saved: verified ?? switched.saved };
  }
}
