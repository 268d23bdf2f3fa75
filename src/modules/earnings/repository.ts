import type { Queryable } from '../../platform/db/index.ts';
import { DEFAULT_ZONE, type Occasion, type PayRuleInput } from './domain/pay.ts';

export interface PayRuleRow {
  id: string;
  zone: string;
  vehicle: string;
  version: number;
  base_pesewas: number;
  per_km_pesewas: number;
  per_failed_attempt_pesewas: number;
  effective_from: Date;
  created_by: string;
  created_at: Date;
}

export interface PayPolicyRow {
  version: number;
  net_cod_cash: boolean;
  effective_from: Date;
  created_by: string;
  created_at: Date;
}

export interface EarningRow {
  id: string;
  order_id: string;
  courier_id: string;
  occasion: Occasion;
  rule_id: string | null;
  zone: string | null;
  vehicle: string;
  road_m: number;
  amount_pesewas: number;
  netted_pesewas: number;
  earned_at: Date;
}

const RULE_COLS =
  'id, zone, vehicle, version, base_pesewas::int, per_km_pesewas::int, per_failed_attempt_pesewas::int, effective_from, created_by, created_at';
const EARNING_COLS =
  'id, order_id, courier_id, occasion, rule_id, zone, vehicle, road_m, amount_pesewas::int, netted_pesewas::int, earned_at';

export const earningsRepository = {
  /**
   * The next version of a zone's and vehicle's rule, numbered in the insert itself. Changes take
   * turns on the table's lock (reads of the rules are not blocked), so two never take one number.
   */
  async insertRule(
    tx: Queryable,
    r: Required<PayRuleInput> & { id: string; createdBy: string; now: Date },
  ): Promise<PayRuleRow> {
    await tx.query('lock table courier_pay_rules in share row exclusive mode');
    return (
      await tx.query<PayRuleRow>(
        `insert into courier_pay_rules (id, zone, vehicle, version, base_pesewas, per_km_pesewas, per_failed_attempt_pesewas, effective_from, created_by, created_at)
         select $1, $2, $3, coalesce(max(version), 0) + 1, $4, $5, $6, $7, $8, $9
           from courier_pay_rules where zone = $2 and vehicle = $3
         returning ${RULE_COLS}`,
        [
          r.id,
          r.zone,
          r.vehicle,
          r.base_pesewas,
          r.per_km_pesewas,
          r.per_failed_attempt_pesewas,
          r.effective_from,
          r.createdBy,
          r.now,
        ],
      )
    )[0]!;
  },

  /** Every version of every rule: by zone and vehicle, the newest version first. */
  async rules(q: Queryable): Promise<PayRuleRow[]> {
    return q.query<PayRuleRow>(
      `select ${RULE_COLS} from courier_pay_rules order by zone, vehicle, version desc limit 1000`,
    );
  },

  /** The rule in force at `at` for a zone and vehicle: the zone's own, else the default zone's. */
  async inForce(
    q: Queryable,
    zone: string | null,
    vehicle: string,
    at: Date,
  ): Promise<PayRuleRow | undefined> {
    return (
      await q.query<PayRuleRow>(
        `select ${RULE_COLS} from courier_pay_rules
          where vehicle = $2 and (zone = $1 or zone = $3) and effective_from <= $4
          order by (zone = $1) desc, effective_from desc, version desc limit 1`,
        [zone ?? DEFAULT_ZONE, vehicle, DEFAULT_ZONE, at],
      )
    )[0];
  },

  /** The policy's next version, numbered in the insert itself under the table's lock (as the rules). */
  async insertPolicy(
    tx: Queryable,
    p: { netCodCash: boolean; effectiveFrom: Date; createdBy: string; now: Date },
  ): Promise<PayPolicyRow> {
    await tx.query('lock table courier_pay_policy in share row exclusive mode');
    return (
      await tx.query<PayPolicyRow>(
        `insert into courier_pay_policy (version, net_cod_cash, effective_from, created_by, created_at)
         select coalesce(max(version), 0) + 1, $1, $2, $3, $4 from courier_pay_policy
         returning version, net_cod_cash, effective_from, created_by, created_at`,
        [p.netCodCash, p.effectiveFrom, p.createdBy, p.now],
      )
    )[0]!;
  },

  async policies(q: Queryable): Promise<PayPolicyRow[]> {
    return q.query<PayPolicyRow>(
      'select version, net_cod_cash, effective_from, created_by, created_at from courier_pay_policy order by version desc limit 200',
    );
  },

  async policyInForce(q: Queryable, at: Date): Promise<PayPolicyRow | undefined> {
    return (
      await q.query<PayPolicyRow>(
        `select version, net_cod_cash, effective_from, created_by, created_at from courier_pay_policy
          where effective_from <= $1 order by effective_from desc, version desc limit 1`,
        [at],
      )
    )[0];
  },

  /** Inserts an earning unless its order and occasion has one already (then undefined). */
  async insertEarning(q: Queryable, e: EarningRow): Promise<EarningRow | undefined> {
    return (
      await q.query<EarningRow>(
        `insert into courier_earnings (id, order_id, courier_id, occasion, rule_id, zone, vehicle, road_m, amount_pesewas, netted_pesewas, earned_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10)
         on conflict (order_id, occasion) do nothing returning ${EARNING_COLS}`,
        [
          e.id,
          e.order_id,
          e.courier_id,
          e.occasion,
          e.rule_id,
          e.zone,
          e.vehicle,
          e.road_m,
          e.amount_pesewas,
          e.earned_at,
        ],
      )
    )[0];
  },

  async setNetted(q: Queryable, id: string, netted: number): Promise<void> {
    await q.query('update courier_earnings set netted_pesewas = $2 where id = $1', [id, netted]);
  },

  /** The orders of these earnings. */
  async ordersOf(
    q: Queryable,
    ids: readonly string[],
  ): Promise<{ id: string; order_id: string }[]> {
    return q.query('select id, order_id from courier_earnings where id = any($1)', [ids]);
  },

  /** One courier's earnings since a moment, newest first. */
  async since(q: Queryable, courierId: string, from: Date, limit: number): Promise<EarningRow[]> {
    return q.query<EarningRow>(
      `select ${EARNING_COLS} from courier_earnings where courier_id = $1 and earned_at >= $2
        order by earned_at desc, id desc limit $3`,
      [courierId, from, limit],
    );
  },

  /** Every courier's latest earnings, newest first (courier_earnings_earned_idx). */
  async latest(q: Queryable, limit: number): Promise<EarningRow[]> {
    return q.query<EarningRow>(
      `select ${EARNING_COLS} from courier_earnings order by earned_at desc, id desc limit $1`,
      [limit],
    );
  },
};
