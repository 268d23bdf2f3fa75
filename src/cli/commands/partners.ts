import { UsageError, type Args } from '../args.ts';
import { morePages, onOff, type Command } from '../command.ts';
import { block, ghs, table, type Fields } from '../output.ts';

const limits = (p: Record<string, any>) =>
  p.rate_limits
    ? `${p.rate_limits.reads_per_minute} reads/min, ${p.rate_limits.writes_per_minute} writes/min`
    : 'platform default';

const partnerFields: Fields = {
  'partner id': 'partner_id',
  name: 'name',
  status: 'status',
  production: 'production_active',
  'credit limit': (p) => ghs(p.credit_limit_ghs),
  'rate limits': limits,
  created: 'created_at',
  updated: 'updated_at',
};

const partner = (body: unknown) => block(body, partnerFields);

function partnerList(body: { partners: unknown[]; next_after: string | null }, a: Args): string {
  const { updated: _, ...fields } = partnerFields;
  return (
    table(body.partners, fields, '(no partners)') +
    morePages('partners', 'partners list', body.next_after, a)
  );
}

function wallet(body: { entries: unknown[] }): string {
  const entries = table(
    body.entries,
    {
      at: 'created_at',
      kind: 'kind',
      amount: (e) => ghs(e.amount_ghs),
      subject: 'subject_id',
      memo: 'memo',
      journal: 'journal_id',
    },
    '(no ledger entries)',
  );
  return `${block(body, { 'partner id': 'partner_id', balance: (w) => ghs(w.balance_ghs), 'credit limit': (w) => ghs(w.credit_limit_ghs) })}\n\n${entries}`;
}

function partnerUpdate(a: Args) {
  const reads = a['reads-per-minute'];
  const writes = a['writes-per-minute'];
  if ((reads === undefined) !== (writes === undefined))
    throw new UsageError('--reads-per-minute and --writes-per-minute go together');
  if (a['default-limits'] && reads !== undefined)
    throw new UsageError(
      '--default-limits cannot be combined with --reads-per-minute/--writes-per-minute',
    );
  const body = {
    status: a.status,
    production_active: onOff(a.production),
    credit_limit_ghs: a['credit-limit'],
    rate_limits: a['default-limits']
      ? null
      : reads !== undefined
        ? { reads_per_minute: reads, writes_per_minute: writes }
        : undefined,
  };
  if (Object.values(body).every((v) => v === undefined))
    throw new UsageError('nothing to update: give at least one option');
  return body;
}

export const partnerGroups = {
  partners: 'Partner accounts: status, production access, credit limit, rate limits',
  wallet: "A partner's prepaid delivery wallet",
};

export const partnerCommands: Command[] = [
  {
    name: 'partners create',
    summary: 'Create a partner account',
    route: 'POST /partners',
    usage: '--name NAME',
    payload: (a) => ({ name: a.name }),
    show: partner,
  },
  {
    name: 'partners list',
    summary: 'List partner accounts, oldest first',
    route: 'GET /partners',
    usage: '[--limit N] [--after PARTNER_ID]',
    payload: (a) => ({ limit: a.limit, after: a.after }),
    show: partnerList,
    help: {
      limit: 'How many to show, 1 to 200 (default 50)',
      after: 'Start after this partner (the last one of the previous page)',
    },
  },
  {
    name: 'partners get',
    summary: 'Show a partner account',
    route: 'GET /partners/:partner_id',
    usage: 'PARTNER_ID',
    show: partner,
  },
  {
    name: 'partners update',
    summary: 'Change a partner: status, production access, credit limit, own rate limits',
    route: 'PATCH /partners/:partner_id',
    usage:
      'PARTNER_ID [--status active|suspended] [--production on|off] [--credit-limit GHS] [--reads-per-minute N --writes-per-minute N | --default-limits]',
    payload: partnerUpdate,
    show: partner,
    help: {
      status: "A suspended partner's keys are refused",
      production: 'Production access: allows production keys and live traffic',
      'credit-limit': 'Credit limit in GHS (at most two decimals)',
      'reads-per-minute': 'Own read limit per key, together with --writes-per-minute',
      'writes-per-minute': 'Own write limit per key, together with --reads-per-minute',
      'default-limits': 'Drop the own limits: the platform defaults apply again',
    },
  },
  {
    name: 'partners suspend',
    summary: 'Suspend a partner: its keys are refused',
    route: 'PATCH /partners/:partner_id',
    usage: 'PARTNER_ID',
    payload: () => ({ status: 'suspended' }),
    show: partner,
  },
  {
    name: 'partners activate',
    summary: 'Reactivate a suspended partner',
    route: 'PATCH /partners/:partner_id',
    usage: 'PARTNER_ID',
    payload: () => ({ status: 'active' }),
    show: partner,
  },
  {
    name: 'wallet show',
    summary: "A partner's wallet: balance, credit limit and the latest 100 ledger entries",
    route: 'GET /partners/:partner_id/wallet',
    usage: 'PARTNER_ID',
    show: wallet,
  },
];
