import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { approvalReasons, cooling } from './domain/approval.ts';
import {
  namesMatch,
  parseDestination,
  payeeKey,
  type DestinationInput,
  type PayeeKind,
} from './domain/destinations.ts';
import { payableAccount, receivableAccount } from './domain/journals.ts';
import type { DestinationSwitch, Switched } from './destination-switch.ts';
import {
  payoutsRepository as repo,
  type DestinationRow,
  type PayoutSchedule,
} from './repository.ts';
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
  /** False when the provider's registered name differs from the name given (saved, but it needs review before it is paid). */
  name_matches: boolean | null;
  /** The payouts not yet sent that were cancelled and made again for it. */
  replaced: Switched['replaced'];
}

/** Whether a destination's registered name (as the provider resolved it) matches the name given; null when it is not known. */
export const nameMatches = (d: Pick<DestinationRow, 'name' | 'resolved_name'>): boolean | null =>
  d.resolved_name === null ? null : namesMatch(d.name, d.resolved_name);

/** Payees (vendors and partners): where they are paid, and what they are owed. */
export class PayeesService {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    private readonly settings: PayoutSettings,
    private readonly directory: PayeeDirectory,
    private readonly destinations: DestinationSwitch,
  ) {}

  /**
   * Sets a payee's destination after checking it (a partner's own change, on the dashboard): its
   * unsent payouts are made again for it, then the provider verifies it (see DestinationSwitch).
   * `inside` runs in the change's transaction (the dashboard queues its notice and audit entry there).
   */
  async setDestination(
    kind: PayeeKind,
    id: string,
    input: DestinationInput,
    by: string,
    inside?: Parameters<DestinationSwitch['replace']>[3]['inside'],
  ): Promise<SavedDestination> {
    const parsed = parseDestination(input);
    if ('problems' in parsed)
      throw errors.validation(
        `Invalid destination: ${parsed.problems.map((p) => `${p.field} ${p.issue}`).join('; ')}.`,
        parsed.problems,
      );
    if (!(await this.directory.exists(kind, id))) throw errors.payeeNotFound(`No ${kind} ${id}.`);
    const { saved, replaced } = await this.destinations.replace(kind, id, parsed.destination, {
      resolvedName: null,
      by,
      setBy: [],
      inside,
    });
    return { destination: saved, name_matches: nameMatches(saved), replaced };
  }

  async destination(kind: PayeeKind, id: string): Promise<DestinationRow | undefined> {
    return repo.destination(this.db, payeeKey(kind, id));
  }

  /** A payee's pending and available balances (a same-day vendor's hold is the shorter one), and what it owes back. */
  async balance(kind: PayeeKind, id: string): Promise<PayeeBalance> {
    const account = payableAccount(kind, id);
    const schedule = kind === 'vendor' ? await repo.schedule(this.db, id) : 'daily';
    const row = (
      await repo.payables(this.db, this.holdCutoff(schedule), [
        account,
        receivableAccount(kind, id),
      ])
    )[0];
    const n = (v: number | undefined) => Number(v ?? 0);
    return {
      payee: payeeKey(kind, id),
      account,
      available_pesewas: n(row?.available_pesewas),
      pending_pesewas: n(row?.pending_pesewas),
      receivable_pesewas: -n(row?.receivable_pesewas),
      schedule,
    };
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
    if (schedule !== 'daily' && schedule !== 'same_day')
      throw errors.validation('Invalid schedule: must be daily or same_day.', [
        { field: 'schedule', issue: 'must be daily or same_day' },
      ]);
    if (!(await this.directory.exists('vendor', vendorId)))
      throw errors.payeeNotFound(`No vendor ${vendorId}.`);
    await this.db.transaction((tx) =>
      repo.setSchedule(tx, vendorId, schedule, by, new Date(this.clock())),
    );
  }

  /** Entries settled at or before this instant are past the hold (the same-day vendors' shorter one when asked). */
  holdCutoff(schedule: PayoutSchedule = 'daily'): Date {
    return new Date(
      this.clock() -
        (schedule === 'same_day' ? this.settings.sameDayHoldHours : this.settings.holdHours) *
          3_600_000,
    );
  }

  /** Whether a destination changed recently enough that payouts to it wait for approval. */
  cooling(d: DestinationRow): boolean {
    return cooling(d.changed_at, this.clock(), this.settings);
  }

  /** Why a payout of `amount` to `d` waits for a second finance operator (none: it is sent). */
  approvalReasons(amount: number, d: DestinationRow): string[] {
    return approvalReasons(amount, d.changed_at, this.clock(), this.settings);
  }
}
