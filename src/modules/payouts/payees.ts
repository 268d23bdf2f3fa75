import type { TransferProvider } from '../../integrations/transfers/types.ts';
import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { namesMatch, parseDestination, payeeKey, type DestinationInput, type PayeeKind } from './domain/destinations.ts';
import { payableAccount, receivableAccount } from './domain/journals.ts';
import { payoutsRepository as repo, type DestinationRow, type PayoutSchedule } from './repository.ts';
import type { PayeeDirectory } from './directory.ts';
import type { PayoutSettings } from './settings.ts';

export interface PayeeBalance {
  payee: string;
  account: string;
  /** Settled more than the hold period ago and not yet paid out, less what the payee owes back (negative while that is more). */
  available_pesewas: number;
  /** Settled within the hold period: a return can still reverse it. */
  pending_pesewas: number;
  /** What the payee owes back (returns after their payout), on its receivable: deducted from its next payout. */
  receivable_pesewas: number;
  /** A vendor's payout schedule (a partner is paid daily). */
  schedule: PayoutSchedule;
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
    private readonly directory: PayeeDirectory,
  ) {}

  /**
   * Sets a payee's destination after checking it; the provider's name lookup, when it has one, is reported beside it.
   * `alongside` runs in the same transaction (the dashboard queues its notice to the old contact there).
   */
  async setDestination(kind: PayeeKind, id: string, input: DestinationInput, by: string, alongside?: (tx: Queryable, saved: DestinationRow) => Promise<void>): Promise<SavedDestination> {
    const parsed = parseDestination(input);
    if ('problems' in parsed) throw errors.validation(`Invalid destination: ${parsed.problems.map((p) => `${p.field} ${p.issue}`).join('; ')}.`, parsed.problems);
    if (!(await this.directory.exists(kind, id))) throw errors.payeeNotFound(`No ${kind} ${id}.`);
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

  /** A payee's pending and available balances (a same-day vendor's hold is the shorter one), and what it owes back. */
  async balance(kind: PayeeKind, id: string): Promise<PayeeBalance> {
    const account = payableAccount(kind, id);
    const schedule = kind === 'vendor' ? await repo.schedule(this.db, id) : 'daily';
    const row = (await repo.payables(this.db, this.holdCutoff(schedule), [account, receivableAccount(kind, id)]))[0];
    const n = (v: number | undefined) => Number(v ?? 0);
    return { payee: payeeKey(kind, id), account, available_pesewas: n(row?.available_pesewas), pending_pesewas: n(row?.pending_pesewas), receivable_pesewas: -n(row?.receivable_pesewas), schedule };
  }

  /** All a payee has earned, net of returns (paid out or not, owed back or not). */
  async earnedPesewas(kind: PayeeKind, id: string): Promise<number> {
    return repo.earned(this.db, [payableAccount(kind, id), receivableAccount(kind, id)]);
  }

  /**
   * Sets a vendor's payout schedule: `same_day` adds a run after each courier cash handover that
   * brought its cod sales' cash in (with the shorter same-day hold); `daily` is the daily run only.
   */
  async setSchedule(vendorId: string, schedule: PayoutSchedule, by: string): Promise<void> {
    if (schedule !== 'daily' && schedule !== 'same_day') throw errors.validation('Invalid schedule: must be daily or same_day.', [{ field: 'schedule', issue: 'must be daily or same_day' }]);
    if (!(await this.directory.exists('vendor', vendorId))) throw errors.payeeNotFound(`No vendor ${vendorId}.`);
    await this.db.transaction((tx) => repo.setSchedule(tx, vendorId, schedule, by, new Date(this.clock())));
  }

  /** Entries settled at or before this instant are past the hold (the same-day vendors' shorter one when asked). */
  holdCutoff(schedule: PayoutSchedule = 'daily'): Date {
    return new Date(this.clock() - (schedule === 'same_day' ? this.settings.sameDayHoldHours : this.settings.holdHours) * 3_600_000);
  }

  /** Whether a destination changed recently enough that payouts to it wait for approval. */
  cooling(d: DestinationRow): boolean {
    return d.changed_at.getTime() > this.clock() - this.settings.coolingHours * 3_600_000;
  }
}
