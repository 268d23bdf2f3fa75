import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { ledger } from '../ledger/index.ts';
import {
  earningJournal,
  PAST_SLACK_MS,
  payFor,
  payRuleProblems,
  type Occasion,
  type PayRuleInput,
} from './domain/pay.ts';
import {
  earningsRepository as repo,
  type EarningRow,
  type PayPolicyRow,
  type PayRuleRow,
} from './repository.ts';

/** A job's occasion to pay, as the flow that books it knows it (in the delivery move's transaction). */
export interface PayableJob {
  orderId: string;
  courierId: string;
  occasion: Occasion;
  zone: string | null;
  vehicle: string;
  roadKm: number;
}

/** One courier's pay for the earnings screen: today's and this week's totals (Accra time) and each job. */
export interface CourierEarnings {
  today_pesewas: number;
  week_pesewas: number;
  jobs: EarningRow[];
}

/** Rings after a commit that booked an earning, naming its courier (the live pay screens). */
export const EARNINGS_CHANNEL = 'courier_earnings';

const DAY_MS = 86_400_000;
/** Accra keeps UTC all year: its day and its week (from Monday) start at UTC midnight. */
const dayStart = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;
const weekStart = (t: number) => dayStart(t) - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS;

/**
 * Couriers' pay: operators' rules per zone and vehicle (a version per change, in force from its
 * effective_from), their policy, and each job's earning booked on the ledger once per occasion.
 */
export class EarningsService {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    private readonly vehicles: readonly string[],
  ) {}

  /** The order each of these earnings was booked for (payouts holds pay for an unconfirmed delivery). */
  async ordersOf(q: Queryable, earningIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await repo.ordersOf(q, earningIds);
    return new Map(rows.map((r) => [r.id, r.order_id]));
  }

  /** Adds the next version of a zone's and vehicle's rule (in force from effective_from, else now). */
  async setRule(input: PayRuleInput, createdBy: string): Promise<PayRuleRow> {
    const now = new Date(this.clock());
    const problems = payRuleProblems(input, this.vehicles, now);
    if (problems.length > 0)
      throw errors.validation(
        `Invalid pay rule: ${problems.map((p) => `${p.field} ${p.issue}`).join('; ')}.`,
        problems,
      );
    const rule = { ...input, effective_from: input.effective_from ?? now };
    return this.db.transaction((tx) =>
      repo.insertRule(tx, { ...rule, id: newId('cpr'), createdBy, now }),
    );
  }

  async rules(): Promise<PayRuleRow[]> {
    return repo.rules(this.db);
  }

  /** Adds a version of the pay policy (whether cash a courier holds is set against their earnings). */
  async setPolicy(
    input: { net_cod_cash: boolean; effective_from?: Date | undefined },
    createdBy: string,
  ): Promise<PayPolicyRow> {
    const now = new Date(this.clock());
    const from = input.effective_from ?? now;
    if (
      typeof input.net_cod_cash !== 'boolean' ||
      Number.isNaN(from.getTime()) ||
      from.getTime() < now.getTime() - PAST_SLACK_MS
    )
      throw errors.validation(
        'Invalid pay policy: net_cod_cash must be true or false, effective_from from now on.',
        [{ field: 'effective_from', issue: 'must be a date and time from now on' }],
      );
    return this.db.transaction((tx) =>
      repo.insertPolicy(tx, {
        netCodCash: input.net_cod_cash,
        effectiveFrom: from,
        createdBy,
        now,
      }),
    );
  }

  async policies(): Promise<PayPolicyRow[]> {
    return repo.policies(this.db);
  }

  /** Whether cash a courier holds is set against their earnings at `at` (off until a policy says so). */
  async netsCodCash(q: Queryable, at: Date): Promise<boolean> {
    return (await repo.policyInForce(q, at))?.net_cod_cash ?? false;
  }

  /**
   * Books a job's earning in the caller's transaction, priced by the rule in force now: its row
   * (unique per order and occasion) and, for a non-zero amount, its journal. Undefined when the
   * occasion was booked already, so a repeated or concurrent event books nothing more.
   */
  async book(tx: Queryable, job: PayableJob): Promise<EarningRow | undefined> {
    const at = new Date(this.clock());
    const rule = await repo.inForce(tx, job.zone, job.vehicle, at);
    const earning = await repo.insertEarning(tx, {
      id: newId('cpe'),
      order_id: job.orderId,
      courier_id: job.courierId,
      occasion: job.occasion,
      rule_id: rule?.id ?? null,
      zone: job.zone,
      vehicle: job.vehicle,
      road_m: Math.round(Math.max(0, job.roadKm) * 1000),
      amount_pesewas: rule ? payFor(rule, job.occasion, job.roadKm) : 0,
      netted_pesewas: 0,
      earned_at: at,
    });
    if (earning && earning.amount_pesewas > 0)
      await ledger.postJournal(
        tx,
        earningJournal(earning.id, job.courierId, earning.amount_pesewas),
        at,
      );
    if (earning) tx.notify(EARNINGS_CHANNEL, job.courierId);
    return earning;
  }

  /** Records the part of an earning set against the courier's cash (in the booking's transaction). */
  async recordNetted(tx: Queryable, earningId: string, netted: number): Promise<void> {
    await repo.setNetted(tx, earningId, netted);
  }

  /** A courier's earnings today and this week (Accra time), with this week's jobs, newest first. */
  async ofCourier(courierId: string): Promise<CourierEarnings> {
    const now = this.clock();
    const today = dayStart(now);
    const jobs = await repo.since(this.db, courierId, new Date(weekStart(now)), 500);
    const sum = (rows: EarningRow[]) => rows.reduce((n, r) => n + r.amount_pesewas, 0);
    return {
      today_pesewas: sum(jobs.filter((j) => j.earned_at.getTime() >= today)),
      week_pesewas: sum(jobs),
      jobs,
    };
  }

  /** Every courier's latest earnings, newest first (the console's courier pay page). */
  async latest(limit: number): Promise<EarningRow[]> {
    return repo.latest(this.db, limit);
  }
}
