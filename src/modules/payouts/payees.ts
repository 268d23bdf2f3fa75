import type { TransferProvider } from '../../integrations/transfers/types.ts';
import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { namesMatch, parseDestination, payeeKey, type DestinationInput, type PayeeKind } from './domain/destinations.ts';
import { payableAccount } from './domain/journals.ts';
import { payoutsRepository as repo, type DestinationRow } from './repository.ts';
import type { PayoutSettings } from './settings.ts';

export interface PayeeBalance {
  payee: string;
  account: string;
  /** Settled more than the hold period ago and not yet paid out (negative: a return after a payout, deducted from the next one). */
  available_pesewas: number;
  /** Settled within the hold period: a return can still reverse it. */
  pending_pesewas: number;
}

export interface SavedDestination {
  destination: DestinationRow;
  /** False when the provider's registered name differs from the name given (saved anyway, shown to the operator). */
  name_matches: boolean | null;
}

/** Payees (vendors and partners): where they are paid, and what they are owed. */
export class PayeesService {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    private readonly provider: TransferProvider,
    private readonly settings: PayoutSettings,
  ) {}

  /**
   * Sets a payee's destination after checking it; the provider's name lookup, when it has one, is reported beside it.
   * `alongside` runs in the same transaction (the dashboard queues its notice to the old contact there).
   */
  async setDestination(kind: PayeeKind, id: string, input: DestinationInput, by: string, alongside?: (tx: Queryable, saved: DestinationRow) => Promise<void>): Promise<SavedDestination> {
    const parsed = parseDestination(input);
    if ('problems' in parsed) throw errors.validation(`Invalid destination: ${parsed.problems.map((p) => `${p.field} ${p.issue}`).join('; ')}.`, parsed.problems);
    if (!(await repo.payeeExists(this.db, kind, id))) throw errors.payeeNotFound(`No ${kind} ${id}.`);
    // The lookup is a network call: made before the transaction, never inside it.
    const resolved = await this.provider.resolveName(parsed.destination);
    const saved = await this.db.transaction(async (tx) => {
      const row = await repo.saveDestination(tx, kind, id, parsed.destination, resolved, by, new Date(this.clock()));
      await alongside?.(tx, row);
      return row;
    });
    return { destination: saved, name_matches: resolved === null ? null : namesMatch(parsed.destination.name, resolved) };
  }

  async destination(kind: PayeeKind, id: string): Promise<DestinationRow | undefined> {
    return repo.destination(this.db, payeeKey(kind, id));
  }

  /** A payee's pending and available balances. */
  async balance(kind: PayeeKind, id: string): Promise<PayeeBalance> {
    const account = payableAccount(kind, id);
    const row = (await repo.payables(this.db, this.holdCutoff(), account))[0];
    return { payee: payeeKey(kind, id), account, available_pesewas: row?.available_pesewas ?? 0, pending_pesewas: row?.pending_pesewas ?? 0 };
  }

  /** All a payee has earned on its payable account, net of returns (paid out or not). */
  async earnedPesewas(kind: PayeeKind, id: string): Promise<number> {
    return repo.earned(this.db, payableAccount(kind, id));
  }

  /** Entries settled at or before this instant are past the hold. */
  holdCutoff(): Date {
    return new Date(this.clock() - this.settings.holdHours * 3_600_000);
  }

  /** Whether a destination changed recently enough that payouts to it wait for approval. */
  cooling(d: DestinationRow): boolean {
    return d.changed_at.getTime() > this.clock() - this.settings.coolingHours * 3_600_000;
  }
}
