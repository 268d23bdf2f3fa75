import { UsageError, type Args, type Value } from './args.ts';
import { del, get, patch, path, post, type ApiRequest } from './http.ts';
import { block, ghs, shownOnce, table, type Fields } from './output.ts';

/**
 * One operator command. Adding an endpoint is one entry here (its usage line declares the arguments, see
 * args.ts) plus, optionally, a formatter; without one the answer is printed as a generic block or table.
 */
export interface Command {
  /** `group command`, as typed. */
  name: string;
  summary: string;
  /** Arguments after the command name; also the parsing spec. */
  usage: string;
  request: (args: Args) => ApiRequest;
  /** Human-readable output of a successful answer (`--json` prints the answer itself). */
  show?: (body: any, args: Args) => string;
  /** One line of help per option or positional, by flag name or placeholder. */
  help?: Record<string, string>;
}

/** Command groups, in help order. */
export const groups: Record<string, string> = {
  partners: 'Partner accounts: status, production access, credit limit, rate limits',
  apps: "A partner's apps, with their webhook and return URLs",
  keys: "An app's API keys",
};

// ---- formatters -------------------------------------------------------------------------------------------

const limits = (p: Record<string, any>) =>
  p.rate_limits ? `${p.rate_limits.reads_per_minute} reads/min, ${p.rate_limits.writes_per_minute} writes/min` : 'platform default';

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

const appFields: Fields = {
  'app id': 'app_id',
  'partner id': 'partner_id',
  name: 'name',
  'webhook url': 'webhook_url',
  'return url': 'return_url',
  created: 'created_at',
};

const keyFields: Fields = {
  'key id': 'key_id',
  'app id': 'app_id',
  environment: 'environment',
  scopes: 'scopes',
  'key hint': 'key_hint',
  created: 'created_at',
  revoked: 'revoked_at',
};

const partner = (body: unknown) => block(body, partnerFields);

function partnerList(body: { partners: unknown[]; next_after: string | null }, args: Args): string {
  const more = body.next_after ? `\n\nMore partners: partner-admin partners list --after ${body.next_after}${args.limit ? ` --limit ${args.limit}` : ''}` : '';
  const { updated: _, ...fields } = partnerFields;
  return table(body.partners, fields, '(no partners)') + more;
}

function app(body: { webhook_secret?: string }): string {
  if (!body.webhook_secret) return block(body, appFields);
  return block(body, { ...appFields, 'webhook secret': 'webhook_secret' }) + shownOnce('webhook secret');
}

function key(body: { api_key?: string }): string {
  if (!body.api_key) return block(body, keyFields);
  const { 'key hint': _, revoked: __, ...fields } = keyFields;
  return block(body, { ...fields, 'api key': 'api_key', 'signing secret': 'signing_secret' }) + shownOnce('API key and signing secret');
}

// ---- request bodies ---------------------------------------------------------------------------------------

const onOff = (value: Value) => (value === undefined ? undefined : value === 'on');

function partnerUpdate(a: Args) {
  const reads = a['reads-per-minute'];
  const writes = a['writes-per-minute'];
  if ((reads === undefined) !== (writes === undefined)) throw new UsageError('--reads-per-minute and --writes-per-minute go together');
  if (a['default-limits'] && reads !== undefined) throw new UsageError('--default-limits cannot be combined with --reads-per-minute/--writes-per-minute');
  const body = {
    status: a.status,
    production_active: onOff(a.production),
    credit_limit_ghs: a['credit-limit'],
    rate_limits: a['default-limits'] ? null : reads !== undefined ? { reads_per_minute: reads, writes_per_minute: writes } : undefined,
  };
  if (Object.values(body).every((v) => v === undefined)) throw new UsageError('nothing to update: give at least one option');
  return body;
}

// ---- the table --------------------------------------------------------------------------------------------

export const commands: Command[] = [
  { name: 'partners create', summary: 'Create a partner account', usage: '--name NAME', request: (a) => post('/partners', { name: a.name }), show: partner },
  {
    name: 'partners list', summary: 'List partner accounts, oldest first', usage: '[--limit N] [--after PARTNER_ID]',
    request: (a) => get('/partners', { limit: a.limit, after: a.after }), show: partnerList,
    help: { limit: 'How many to show, 1 to 200 (default 50)', after: 'Start after this partner (the last one of the previous page)' },
  },
  { name: 'partners get', summary: 'Show a partner account', usage: 'PARTNER_ID', request: (a) => get(path`/partners/${a.PARTNER_ID}`), show: partner },
  {
    name: 'partners update', summary: 'Change a partner: status, production access, credit limit, own rate limits',
    usage: 'PARTNER_ID [--status active|suspended] [--production on|off] [--credit-limit GHS] [--reads-per-minute N --writes-per-minute N | --default-limits]',
    request: (a) => patch(path`/partners/${a.PARTNER_ID}`, partnerUpdate(a)), show: partner,
    help: {
      status: 'A suspended partner\'s keys are refused',
      production: 'Allow production keys and live traffic',
      'credit-limit': 'Credit limit in GHS (at most two decimals); a negative amount needs --credit-limit=-N',
      'reads-per-minute': 'Own read limit per key, together with --writes-per-minute',
      'writes-per-minute': 'Own write limit per key, together with --reads-per-minute',
      'default-limits': 'Drop the own limits: the platform defaults apply again',
    },
  },
  { name: 'partners suspend', summary: "Suspend a partner: its keys are refused", usage: 'PARTNER_ID', request: (a) => patch(path`/partners/${a.PARTNER_ID}`, { status: 'suspended' }), show: partner },
  { name: 'partners activate', summary: 'Reactivate a suspended partner', usage: 'PARTNER_ID', request: (a) => patch(path`/partners/${a.PARTNER_ID}`, { status: 'active' }), show: partner },
  {
    name: 'apps create', summary: 'Create an app; its webhook secret is shown once', usage: 'PARTNER_ID --name NAME [--webhook-url URL] [--return-url URL]',
    request: (a) => post(path`/partners/${a.PARTNER_ID}/apps`, { name: a.name, webhook_url: a['webhook-url'], return_url: a['return-url'] }), show: app,
    help: { 'webhook-url': 'Where events are POSTed (http or https; a public address, or a local one for staging events with WEBHOOK_LOCAL_DESTINATIONS=on)', 'return-url': "Where a buyer's browser goes after a prepaid checkout" },
  },
  { name: 'apps list', summary: "List a partner's apps", usage: 'PARTNER_ID', request: (a) => get(path`/partners/${a.PARTNER_ID}/apps`), show: (b) => table(b.apps, appFields, '(no apps)') },
  {
    name: 'keys create', summary: 'Create an API key; the key and its signing secret are shown once', usage: 'APP_ID --env staging|production --scopes SCOPE,...',
    request: (a) => post(path`/apps/${a.APP_ID}/keys`, { environment: a.env, scopes: a.scopes }), show: key,
    help: { env: 'Production keys need the partner to have production access', scopes: 'Comma-separated, e.g. delivery:read,delivery:write (money scopes must be named)' },
  },
  { name: 'keys list', summary: "List an app's keys (hints only)", usage: 'APP_ID', request: (a) => get(path`/apps/${a.APP_ID}/keys`), show: (b) => table(b.keys, keyFields, '(no keys)') },
  {
    name: 'keys revoke', summary: 'Revoke a key; every instance refuses it within seconds', usage: 'KEY_ID',
    request: (a) => del(path`/keys/${a.KEY_ID}`), show: (_, a) => `Revoked key ${a.KEY_ID}: it answers 401 INVALID_API_KEY from now on.`,
  },
];
