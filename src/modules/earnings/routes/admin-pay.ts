import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../platform/http/admin.ts';
import { strictObject } from '../../../platform/http/schemas.ts';
import { PAY_LIMITS } from '../domain/pay.ts';
import type { PayPolicyRow, PayRuleRow } from '../repository.ts';
import type { EarningsService } from '../service.ts';

const FINANCE = ['finance', 'admin'] as const;
const DateTime = Type.String({ format: 'date-time', maxLength: 40 });

export const payRuleView = (r: PayRuleRow) => ({
  pay_rule_id: r.id,
  zone: r.zone,
  vehicle: r.vehicle,
  version: r.version,
  base_pesewas: r.base_pesewas,
  per_km_pesewas: r.per_km_pesewas,
  per_failed_attempt_pesewas: r.per_failed_attempt_pesewas,
  effective_from: r.effective_from.toISOString(),
  created_by: r.created_by,
  created_at: r.created_at.toISOString(),
});

export const payPolicyView = (p: PayPolicyRow) => ({
  version: p.version,
  net_cod_cash: p.net_cod_cash,
  effective_from: p.effective_from.toISOString(),
  created_by: p.created_by,
  created_at: p.created_at.toISOString(),
});

const amount = (max: number) => Type.Integer({ minimum: 0, maximum: max });
const at = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

/** Couriers' pay rules and policy: every change a new version, audited; reads for every role. */
export const payAdminRoutes = (earnings: EarningsService) => [
  defineAdminRoute({
    method: 'GET',
    url: '/courier-pay/rules',
    summary: "Couriers' pay rules per zone and vehicle, every version, the newest first",
    handler: async () => ({ body: { data: (await earnings.rules()).map(payRuleView) } }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/courier-pay/rules',
    roles: FINANCE,
    audit: { action: 'pay_rule.create' },
    summary:
      "Add the next version of a zone's and vehicle's pay rule (zone `default` covers zones without their own), in force from effective_from (now when left out); earnings use the version in force when each job is delivered or fails",
    body: strictObject({
      zone: Type.String({ minLength: 1, maxLength: 60 }),
      vehicle: Type.String({ minLength: 1, maxLength: 20 }),
      base_pesewas: amount(PAY_LIMITS.base_pesewas),
      per_km_pesewas: amount(PAY_LIMITS.per_km_pesewas),
      per_failed_attempt_pesewas: amount(PAY_LIMITS.per_failed_attempt_pesewas),
      effective_from: Type.Optional(DateTime),
    }),
    handler: async ({ body, actor }) => {
      const rule = await earnings.setRule(
        { ...body, effective_from: at(body.effective_from) },
        actor.id,
      );
      return { statusCode: 201, body: payRuleView(rule) };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/courier-pay/policy',
    summary: "The couriers' pay policy, every version, the newest first",
    handler: async () => ({ body: { data: (await earnings.policies()).map(payPolicyView) } }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/courier-pay/policy',
    roles: FINANCE,
    audit: { action: 'pay_policy.create' },
    summary:
      'Add a version of the pay policy: net_cod_cash sets cash a courier holds against each earning as it is booked (off until a policy says so)',
    body: strictObject({
      net_cod_cash: Type.Boolean(),
      effective_from: Type.Optional(DateTime),
    }),
    handler: async ({ body, actor }) => ({
      statusCode: 201,
      body: payPolicyView(
        await earnings.setPolicy(
          { net_cod_cash: body.net_cod_cash, effective_from: at(body.effective_from) },
          actor.id,
        ),
      ),
    }),
  }),
];
