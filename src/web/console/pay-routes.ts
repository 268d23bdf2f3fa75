import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { VEHICLES } from '../../modules/couriers/index.ts';
import { DEFAULT_ZONE, payPolicyView, payRuleView } from '../../modules/earnings/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { formatGhs, ghsToPesewas } from '../../platform/money.ts';
import { definePage } from '../../platform/web/page.ts';
import { liveBoard } from './live-board.ts';
import { runRow } from './payout-view.ts';
import {
  holds,
  utc,
  ALL_ROLES,
  FINANCE_ROLES,
  type ConsoleKit,
  type OperatorCurrent,
} from './kit.ts';

const AMOUNT = /^\d{1,7}(\.\d{1,2})?$/;
// A datetime-local value, read as UTC (Accra's time all year).
const WHEN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const RULE_FORM = {
  zone: { max: 60, label: 'Zone' },
  vehicle: { max: 20, label: 'Vehicle' },
  base_ghs: { max: 12, label: 'Base' },
  per_km_ghs: { max: 12, label: 'Per km' },
  per_failed_attempt_ghs: { max: 12, label: 'Per failed attempt' },
  effective_from: { max: 20, label: 'In force from' },
} as const;
const POLICY_FORM = {
  net_cod_cash: { max: 3, label: 'Net cash held' },
  effective_from: { max: 20, label: 'In force from' },
} as const;

/** GHS typed in a form as pesewas; NaN (refused by the rule's own check) when it is not an amount. */
const pesewasOf = (ghs: string) =>
  AMOUNT.test(ghs) ? (ghsToPesewas(Number(ghs)) ?? Number.NaN) : Number.NaN;
const whenOf = (text: string) =>
  text === '' ? undefined : WHEN.test(text) ? new Date(`${text}:00Z`) : new Date(Number.NaN);

type PayPage = (
  reply: FastifyReply,
  current: OperatorCurrent,
  extra?: Record<string, unknown>,
  status?: number,
) => Promise<unknown>;

/** Earnings and pay runs listed on the page (the newest first). */
const LATEST = 20;

/** The live part: every courier's latest earnings and, for finance, the latest pay runs. */
async function activity(kit: ConsoleKit, current: OperatorCurrent, operators: Map<string, string>) {
  const { earnings, payouts, couriers } = kit.deps;
  const [latest, runs] = await Promise.all([
    earnings.latest(LATEST),
    payouts && holds(current, FINANCE_ROLES) ? payouts.service.runs(LATEST) : undefined,
  ]);
  const courier = await couriers.service.namesOf(latest.map((e) => e.courier_id));
  return {
    earnings: latest.map((e) => ({
      when: utc(e.earned_at),
      courierId: e.courier_id,
      courier: courier.get(e.courier_id) ?? e.courier_id,
      order: e.order_id,
      what:
        e.occasion === 'delivered'
          ? 'delivered'
          : `could not deliver (trip ${e.occasion.split(':')[1]})`,
      amount: formatGhs(e.amount_pesewas),
      netted: e.netted_pesewas > 0 ? formatGhs(e.netted_pesewas) : '—',
    })),
    orderPages: Boolean(kit.deps.orders),
    runs: runs?.map((r) => runRow(r, operators)),
    ...liveBoard(kit)('pay', '/console/courier-pay'),
  };
}

/** The page: every version of the rules and of the policy, with who set each, and what was earned and paid. */
function payPage(kit: ConsoleKit): PayPage {
  const { earnings } = kit.deps;
  return async function page(
    reply: FastifyReply,
    current: OperatorCurrent,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const [rules, policies, operators] = await Promise.all([
      earnings.rules(),
      earnings.policies(),
      kit.operatorNames(),
    ]);
    const by = (id: string) => operators.get(id) ?? id;
    return kit.page(
      reply,
      'courier-pay',
      {
        title: 'Courier pay',
        rules: rules.map((r) => ({
          ...r,
          base: formatGhs(r.base_pesewas),
          perKm: formatGhs(r.per_km_pesewas),
          perFailed: formatGhs(r.per_failed_attempt_pesewas),
          from: utc(r.effective_from),
          by: by(r.created_by),
        })),
        policies: policies.map((p) => ({
          ...p,
          from: utc(p.effective_from),
          by: by(p.created_by),
        })),
        vehicles: VEHICLES,
        defaultZone: DEFAULT_ZONE,
        canChange: holds(current, FINANCE_ROLES),
        ...(await activity(kit, current, operators)),
        values: {},
        ...extra,
      },
      status,
    );
  };
}

/** Saves a version and records it in the audit log, or shows the refusal on the page. */
function saver(kit: ConsoleKit, page: PayPage) {
  return async function save(
    request: FastifyRequest,
    reply: FastifyReply,
    current: OperatorCurrent,
    action: string,
    change: () => Promise<Record<string, unknown>>,
    values: Record<string, string>,
  ) {
    try {
      const after = await change();
      await kit.audit(request, current, {
        action,
        target: { type: action.split('.')[0]!, id: String(after.pay_rule_id ?? after.version) },
        after,
      });
      return page(reply, current, { notice: 'Saved as a new version.' });
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return page(reply, current, { error: err.message, values }, err.statusCode);
    }
  };
}

/**
 * Couriers' pay for operators: the pay rules per zone and vehicle and the pay policy, every version
 * with who set it; finance and admin add a version (audited as the operator API's changes are).
 */
export function registerConsolePayRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { earnings } = kit.deps;
  const page = payPage(kit);
  const save = saver(kit, page);

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/courier-pay', need: ALL_ROLES },
    async ({ reply, actor }) => page(reply, actor),
  );

  definePage(
    app,
    kit,
    { method: 'POST', path: '/console/courier-pay/rules', need: FINANCE_ROLES, form: RULE_FORM },
    async ({ request, reply, actor, form: f }) =>
      save(
        request,
        reply,
        actor,
        'pay_rule.create',
        async () =>
          payRuleView(
            await earnings.setRule(
              {
                zone: f.zone.trim(),
                vehicle: f.vehicle,
                base_pesewas: pesewasOf(f.base_ghs),
                per_km_pesewas: pesewasOf(f.per_km_ghs),
                per_failed_attempt_pesewas: pesewasOf(f.per_failed_attempt_ghs),
                effective_from: whenOf(f.effective_from),
              },
              actor.operator.id,
            ),
          ),
        f,
      ),
  );

  definePage(
    app,
    kit,
    { method: 'POST', path: '/console/courier-pay/policy', need: FINANCE_ROLES, form: POLICY_FORM },
    async ({ request, reply, actor, form: f }) =>
      save(
        request,
        reply,
        actor,
        'pay_policy.create',
        async () =>
          payPolicyView(
            await earnings.setPolicy(
              { net_cod_cash: f.net_cod_cash === 'on', effective_from: whenOf(f.effective_from) },
              actor.operator.id,
            ),
          ),
        f,
      ),
  );
}
