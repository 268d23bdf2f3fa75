import { MONEY_SCOPES } from '../../platform/auth/scopes.ts';
import { UsageError, type Args } from '../args.ts';
import type { Command } from '../command.ts';
import { block, shownOnce, table, type Fields } from '../output.ts';

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

function app(body: { webhook_secret?: string }): string {
  if (!body.webhook_secret) return block(body, appFields);
  return (
    block(body, { ...appFields, 'webhook secret': 'webhook_secret' }) + shownOnce('webhook secret')
  );
}

function key(body: { api_key?: string }): string {
  if (!body.api_key) return block(body, keyFields);
  const { 'key hint': _, revoked: __, ...fields } = keyFields;
  return (
    block(body, { ...fields, 'api key': 'api_key', 'signing secret': 'signing_secret' }) +
    shownOnce('API key and signing secret')
  );
}

const rotated = (body: unknown) =>
  block(body, {
    'app id': 'app_id',
    'webhook secret': 'webhook_secret',
    'previous secret valid until': 'previous_secret_valid_until',
  }) + shownOnce('webhook secret');

/** A URL option, or null when its --clear-… switch is given; both at once is a usage error. */
function urlOrClear(a: Args, flag: string): string | null | undefined {
  if (a[`clear-${flag}`] && a[flag] !== undefined)
    throw new UsageError(`--${flag} and --clear-${flag} cannot be combined`);
  return a[`clear-${flag}`] ? null : (a[flag] as string | undefined);
}

function appUpdate(a: Args) {
  const body = {
    name: a.name,
    webhook_url: urlOrClear(a, 'webhook-url'),
    return_url: urlOrClear(a, 'return-url'),
  };
  if (Object.values(body).every((v) => v === undefined))
    throw new UsageError('nothing to update: give at least one option');
  return body;
}

/**
 * Wildcards never grant the money scopes (design: the scopes in src/platform/auth/scopes.ts): a production key
 * created with one says which money scopes it lacks and how to name them, since that is rarely what was meant.
 */
function moneyScopesLeftOut(a: Args): string | undefined {
  const scopes = a.scopes as string[];
  if (a.env !== 'production') return undefined;
  const covered = (s: string) =>
    scopes.includes('*') || (scopes.includes('delivery:*') && s.startsWith('delivery:'));
  const missing = [...MONEY_SCOPES].filter((s) => covered(s) && !scopes.includes(s));
  if (missing.length === 0) return undefined;
  const named = [...scopes, ...missing].join(',');
  return (
    `warning: wildcards never grant the money scopes, so this key lacks ${missing.join(', ')}.\n` +
    `To grant them, name them: partner-admin keys create ${a.APP_ID} --env production --scopes "${named}" (then revoke this key).`
  );
}

const URL_HELP =
  'http or https on a public host; https once the app has a production key (http stays possible for staging-only apps, for local testing)';

export const appGroups = {
  apps: "A partner's apps, with their webhook and return URLs and webhook secret",
  keys: "An app's API keys",
};

export const appCommands: Command[] = [
  {
    name: 'apps create',
    summary: 'Create an app; its webhook secret is shown once',
    route: 'POST /partners/:partner_id/apps',
    usage: 'PARTNER_ID --name NAME [--webhook-url URL] [--return-url URL]',
    payload: (a) => ({ name: a.name, webhook_url: a['webhook-url'], return_url: a['return-url'] }),
    show: app,
    help: {
      'webhook-url': `Where events are POSTed: ${URL_HELP}`,
      'return-url': "Where a buyer's browser goes after a prepaid checkout",
    },
  },
  {
    name: 'apps list',
    summary: "List a partner's apps",
    route: 'GET /partners/:partner_id/apps',
    usage: 'PARTNER_ID',
    show: (b) => table(b.apps, appFields, '(no apps)'),
  },
  {
    name: 'apps update',
    summary: "Change an app's name, webhook URL or return URL",
    route: 'PATCH /apps/:app_id',
    usage:
      'APP_ID [--name NAME] [--webhook-url URL | --clear-webhook-url] [--return-url URL | --clear-return-url]',
    payload: appUpdate,
    show: app,
    help: {
      'webhook-url': URL_HELP,
      'clear-webhook-url': 'Remove the webhook URL: events are kept as no_destination',
      'clear-return-url': 'Remove the return URL',
    },
  },
  {
    name: 'apps rotate-secret',
    summary:
      'Issue a new webhook secret (shown once); the previous one keeps signing for the overlap',
    route: 'POST /apps/:app_id/webhook-secret/rotate',
    usage: 'APP_ID [--overlap-hours N]',
    payload: (a) => ({ overlap_hours: a['overlap-hours'] }),
    show: rotated,
    help: { 'overlap-hours': 'Hours the previous secret also signs, 0 to 168 (default 24)' },
  },
  {
    name: 'keys create',
    summary: 'Create an API key; the key and its signing secret are shown once',
    route: 'POST /apps/:app_id/keys',
    usage: 'APP_ID --env staging|production --scopes SCOPE,...',
    payload: (a) => ({ environment: a.env, scopes: a.scopes }),
    show: key,
    notice: moneyScopesLeftOut,
    help: {
      env: 'Production keys need the partner to have production access (partners update PARTNER_ID --production on)',
      scopes: `Comma-separated, e.g. delivery:read,delivery:write; the wildcards * and delivery:* never grant the money scopes (${[...MONEY_SCOPES].join(', ')}): name those`,
    },
  },
  {
    name: 'keys list',
    summary: "List an app's keys (hints only)",
    route: 'GET /apps/:app_id/keys',
    usage: 'APP_ID',
    show: (b) => table(b.keys, keyFields, '(no keys)'),
  },
  {
    name: 'keys revoke',
    summary: 'Revoke a key; every instance refuses it within seconds',
    route: 'DELETE /keys/:key_id',
    usage: 'KEY_ID',
    show: (_, a) => `Revoked key ${a.KEY_ID}: it answers 401 INVALID_API_KEY from now on.`,
  },
];
