import { onOff, type Command } from '../command.ts';
import { block, ghs, table, type Fields } from '../output.ts';

const cedis = (pesewas: unknown) =>
  typeof pesewas === 'number' ? ghs(pesewas / 100) : ghs(pesewas);
const pesewas = (value: unknown) =>
  value === undefined ? undefined : Math.round(Number(value) * 100);
const ruleFields: Fields = {
  rule: 'pay_rule_id',
  zone: 'zone',
  vehicle: 'vehicle',
  version: 'version',
  base: (r) => cedis(r.base_pesewas),
  'per km': (r) => cedis(r.per_km_pesewas),
  'per failed attempt': (r) => cedis(r.per_failed_attempt_pesewas),
  from: 'effective_from',
  by: 'created_by',
};
const policyFields: Fields = {
  version: 'version',
  'net cod cash': (p) => (p.net_cod_cash ? 'on' : 'off'),
  from: 'effective_from',
  by: 'created_by',
};

export const payGroups = {
  pay: "Couriers' pay: rules per zone and vehicle, and the policy on cash they hold (every change a new version)",
};

export const payCommands: Command[] = [
  {
    name: 'pay rules',
    summary: 'Every version of every pay rule, the newest first',
    route: 'GET /courier-pay/rules',
    show: (b) => table(b.data, ruleFields, '(no pay rules: couriers earn nothing yet)'),
  },
  {
    name: 'pay set-rule',
    summary: "Add the next version of a zone's and vehicle's pay rule",
    route: 'POST /courier-pay/rules',
    usage:
      '--zone ZONE|default --vehicle motorbike|car|van --base GHS --per-km GHS --per-failed-attempt GHS [--effective-from ISO_TIME]',
    payload: (a) => ({
      zone: a.zone,
      vehicle: a.vehicle,
      base_pesewas: pesewas(a.base),
      per_km_pesewas: pesewas(a['per-km']),
      per_failed_attempt_pesewas: pesewas(a['per-failed-attempt']),
      effective_from: a['effective-from'],
    }),
    show: (b) => block(b, ruleFields),
    help: {
      zone: 'A dispatch zone id (e.g. greater-accra), or default for zones without their own rule',
      'effective-from': 'When the version comes into force (now when left out); never in the past',
    },
  },
  {
    name: 'pay policy',
    summary: 'Every version of the pay policy, the newest first',
    route: 'GET /courier-pay/policy',
    show: (b) => table(b.data, policyFields, '(no policy: cash held is not netted)'),
  },
  {
    name: 'pay set-policy',
    summary: 'Add a version of the pay policy',
    route: 'POST /courier-pay/policy',
    usage: '--net-cod-cash on|off [--effective-from ISO_TIME]',
    payload: (a) => ({
      net_cod_cash: onOff(a['net-cod-cash']),
      effective_from: a['effective-from'],
    }),
    show: (b) => block(b, policyFields),
    help: {
      'net-cod-cash': 'on: cash a courier holds is set against each earning as it is booked',
    },
  },
];
