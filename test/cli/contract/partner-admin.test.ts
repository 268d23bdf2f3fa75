import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wantsColour } from '../../../src/cli/output.ts';
import { ADMIN_TOKEN, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { adminCli, field, json, SLOW, type Run } from '../admin-cli.ts';

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p.close());

const cli = (args: string[], env: Record<string, string | undefined> = {}): Promise<Run> =>
  adminCli(p.url, args, env);
const ESC = '\u001b[';

describe('partner-admin: help, version, suggestions, colour', () => {
  it(
    'prints help at every level, with the route each command calls, and its version',
    async () => {
      const [top, group, command, version, none] = await Promise.all([
        cli(['--help']),
        cli(['keys', '--help']),
        cli(['partners', 'update', '--help']),
        cli(['--version']),
        cli([]),
      ]);
      expect(top.code).toBe(0);
      expect(top.stdout).toMatch(/^Usage: partner-admin \[options\] \[command\]/);
      for (const word of [
        'partners',
        'wallet',
        'webhooks',
        'orders',
        'locations',
        'vendors',
        'products',
        'sales',
        'migrate',
        'PARTNER_ADMIN_URL',
        'NO_COLOR',
        'Exit codes',
      ]) {
        expect(top.stdout).toContain(word);
      }
      expect(group.stdout).toMatch(/^ {2}create \[options\] <APP_ID> +Create an API key/m);
      expect(command.stdout).toContain('--status <active|suspended>');
      expect(command.stdout).toContain('--default-limits');
      expect(command.stdout).toContain('Calls PATCH /admin/v1/partners/:partner_id.');
      const pkg = JSON.parse(
        readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
      );
      expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/^Usage: partner-admin/);
    },
    SLOW,
  );

  it(
    'suggests the command or option that was meant (exit code 2)',
    async () => {
      const [group, command, option] = await Promise.all([
        cli(['partner', 'list']),
        cli(['partners', 'lst']),
        cli(['partners', 'list', '--limt', '3']),
      ]);
      expect(group).toMatchObject({ code: 2, stdout: '' });
      expect(group.stderr).toMatch(
        /^error: unknown command 'partner'\n\(Did you mean partners\?\)/,
      );
      expect(command.stderr).toMatch(/\(Did you mean list\?\)/);
      expect(option.stderr).toMatch(/^error: unknown option '--limt'\n\(Did you mean --limit\?\)/);
      expect(option.code).toBe(2);
    },
    SLOW,
  );

  it(
    'takes its global flags (--json, --url, --token) before or after the command',
    async () => {
      const { partner_id: id } = (await p.admin('POST', '/partners', { name: 'Flags anywhere' }))
        .body;
      const elsewhere = { PARTNER_ADMIN_URL: 'http://127.0.0.1:1', ADMIN_TOKEN: undefined };
      const [before, after, between] = await Promise.all([
        cli(['--json', '--url', p.url, '--token', ADMIN_TOKEN, 'partners', 'get', id], elsewhere),
        cli(['partners', 'get', id, '--json', '--url', p.url, '--token', ADMIN_TOKEN], elsewhere),
        cli(['partners', '--json', 'get', '--url', p.url, id, '--token', ADMIN_TOKEN], elsewhere),
      ]);
      for (const run of [before, after, between])
        expect([run.code, json(run).partner_id], run.stderr).toEqual([0, id]);
    },
    SLOW,
  );

  it(
    'colours a terminal only: none when piped or with NO_COLOR, some with FORCE_COLOR',
    async () => {
      await p.admin('POST', '/partners', { name: 'Colourful' });
      const [piped, forced] = await Promise.all([
        cli(['partners', 'list']),
        cli(['partners', 'list'], { FORCE_COLOR: '1' }),
      ]);
      const [pipedError, forcedError] = await Promise.all([
        cli(['partners', 'get', 'ptn_missing']),
        cli(['partners', 'get', 'ptn_missing'], { FORCE_COLOR: '1' }),
      ]);
      expect(piped.stdout).not.toContain(ESC);
      expect(pipedError.stderr).not.toContain(ESC);
      expect(forced.stdout.startsWith(`${ESC}1mPARTNER ID`)).toBe(true);
      expect(forcedError.stderr).toContain(`${ESC}31merror: There is no partner ptn_missing.`);
      const terminal = { isTTY: true, hasColors: () => true };
      expect(wantsColour(terminal, {})).toBe(true);
      expect(wantsColour(terminal, { NO_COLOR: '1' })).toBe(false);
      expect(wantsColour(terminal, { FORCE_COLOR: '0' })).toBe(false);
      expect(wantsColour({ isTTY: true, hasColors: () => false }, {})).toBe(false);
      expect(wantsColour({ isTTY: false }, {})).toBe(false);
      expect(wantsColour({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    },
    SLOW,
  );
});

describe('partner-admin: accounts', () => {
  it(
    'manages a partner, its wallet, an app and keys; human output and --json',
    async () => {
      const created = await cli(['partners', 'create', '--name', 'Acme Deliveries']);
      expect(created).toMatchObject({ code: 0, stderr: '' });
      expect(created.stdout).toMatch(/^partner id: +ptn_\w+$/m);
      expect(created.stdout).toMatch(/^credit limit: +GHS 0\.00$/m);
      const partnerId = field(created, 'partner id');

      const updated = await cli([
        'partners',
        'update',
        partnerId,
        '--production',
        'on',
        '--credit-limit',
        '250.5',
        '--reads-per-minute',
        '30',
        '--writes-per-minute',
        '10',
        '--json',
      ]);
      expect(json(updated)).toMatchObject({
        partner_id: partnerId,
        production_active: true,
        credit_limit_ghs: 250.5,
        rate_limits: { reads_per_minute: 30, writes_per_minute: 10 },
      });

      const [suspended, list, wallet] = await Promise.all([
        cli(['partners', 'suspend', partnerId]),
        cli(['partners', 'list', '--limit', '200']),
        cli(['wallet', 'show', partnerId]),
      ]);
      expect(suspended.stdout).toMatch(/^status: +suspended$/m);
      expect(suspended.stdout).toMatch(/^rate limits: +30 reads\/min, 10 writes\/min$/m);
      expect(list.stdout.split('\n')[0]).toMatch(/^PARTNER ID +NAME +STATUS +PRODUCTION/);
      expect(list.stdout).toMatch(new RegExp(`^${partnerId} +Acme Deliveries +`, 'm'));
      expect(wallet.stdout).toMatch(/^balance: +GHS 0\.00$/m);
      expect(wallet.stdout).toMatch(/^credit limit: +GHS 250\.50$/m);
      expect(wallet.stdout).toContain('(no ledger entries)');

      const app = await cli([
        'apps',
        'create',
        partnerId,
        '--name',
        'Shop',
        '--webhook-url',
        'https://example.com/hooks',
        '--json',
      ]);
      const appBody = json(app);
      expect(appBody).toMatchObject({
        name: 'Shop',
        webhook_url: 'https://example.com/hooks',
        webhook_secret: expect.stringMatching(/^whsec_/),
      });
      const [renamed, rotated] = await Promise.all([
        cli([
          'apps',
          'update',
          appBody.app_id,
          '--name',
          'Shop 2',
          '--return-url',
          'https://example.com/done',
        ]),
        cli(['apps', 'rotate-secret', appBody.app_id, '--overlap-hours', '2']),
      ]);
      expect(renamed.stdout).toMatch(/^return url: +https:\/\/example\.com\/done$/m);
      expect(rotated.stdout).toMatch(/^webhook secret: +whsec_\S+$/m);
      expect(rotated.stdout).toMatch(/cannot be retrieved again/);

      const key = await cli([
        'keys',
        'create',
        appBody.app_id,
        '--env',
        'production',
        '--scopes',
        'delivery:read,delivery:write',
      ]);
      expect(key).toMatchObject({ code: 0, stderr: '' });
      expect(key.stdout).toMatch(/^api key: +pk_production_\S+$/m);
      expect(key.stdout).toMatch(/^signing secret: +sk_production_\S+$/m);
      const keyId = field(key, 'key id');

      const [apps, revoked] = await Promise.all([
        cli(['apps', 'list', partnerId]),
        cli(['keys', 'revoke', keyId]),
      ]);
      expect(apps.stdout).toMatch(
        new RegExp(`^${appBody.app_id} +${partnerId} +Shop 2 +https://example.com/hooks`, 'm'),
      );
      expect(revoked.stdout).toContain(`Revoked key ${keyId}`);
      const keys = await cli(['keys', 'list', appBody.app_id, '--json']);
      expect(json(keys).keys).toEqual([
        expect.objectContaining({
          key_id: keyId,
          environment: 'production',
          revoked_at: expect.any(String),
        }),
      ]);
      expect(keys.stdout).not.toContain('sk_production_');
      const cleared = await cli([
        'apps',
        'update',
        appBody.app_id,
        '--clear-webhook-url',
        '--json',
      ]);
      expect(json(cleared).webhook_url).toBeNull();
    },
    SLOW,
  );

  it(
    'warns that wildcards leave the money scopes out of a production key, and grants them when named',
    async () => {
      const partner = (await p.admin('POST', '/partners', { name: 'Money' })).body;
      await p.admin('PATCH', `/partners/${partner.partner_id}`, { production_active: true });
      const app = (await p.admin('POST', `/partners/${partner.partner_id}/apps`, { name: 'App' }))
        .body;
      const [wildcard, named, delivery, staging] = await Promise.all([
        cli(['keys', 'create', app.app_id, '--env', 'production', '--scopes', '*']),
        cli([
          'keys',
          'create',
          app.app_id,
          '--env',
          'production',
          '--scopes',
          '*,delivery:wallet:topup,delivery:wallet:spend,safe:write,payouts:read',
          '--json',
        ]),
        cli([
          'keys',
          'create',
          app.app_id,
          '--env',
          'production',
          '--scopes',
          'delivery:*,delivery:wallet:spend',
        ]),
        cli(['keys', 'create', app.app_id, '--env', 'staging', '--scopes', '*']),
      ]);
      expect(wildcard.code).toBe(0);
      expect(wildcard.stderr).toBe(
        'warning: wildcards never grant the money scopes, so this key lacks delivery:wallet:topup, delivery:wallet:spend, safe:write, payouts:read.\n' +
          `To grant them, name them: partner-admin keys create ${app.app_id} --env production --scopes "*,delivery:wallet:topup,delivery:wallet:spend,safe:write,payouts:read" (then revoke this key).\n`,
      );
      expect(named.stderr).toBe('');
      expect(json(named).scopes).toEqual([
        '*',
        'delivery:wallet:topup',
        'delivery:wallet:spend',
        'safe:write',
        'payouts:read',
      ]);
      expect(delivery.stderr).toMatch(/this key lacks delivery:wallet:topup\.\n/);
      expect(staging.stderr).toBe('');
    },
    SLOW,
  );

  it(
    'reports API errors with code, request id, details and hints on stderr, and exits 1',
    async () => {
      const partner = (await p.admin('POST', '/partners', { name: 'Errors Ltd' })).body;
      const app = (
        await p.admin('POST', `/partners/${partner.partner_id}/apps`, { name: 'Errors App' })
      ).body;
      const [wrongToken, missing, invalid, stagingSpend, notLive] = await Promise.all([
        // The env URL is wrong on purpose: --url overrides it.
        cli(['partners', 'list', '--token', 'not-the-admin-token-at-all', '--url', p.url], {
          PARTNER_ADMIN_URL: 'http://127.0.0.1:9',
        }),
        cli(['partners', 'get', 'ptn_doesnotexist', '--json']),
        cli(['partners', 'update', partner.partner_id, '--credit-limit', '-5']),
        cli([
          'keys',
          'create',
          app.app_id,
          '--env',
          'staging',
          '--scopes',
          'delivery:read,delivery:wallet:spend',
        ]),
        cli(['keys', 'create', app.app_id, '--env', 'production', '--scopes', 'delivery:read']),
      ]);
      expect(wrongToken).toMatchObject({ code: 1, stdout: '' });
      expect(wrongToken.stderr).toMatch(/^error: .+ \(INVALID_ADMIN_TOKEN, request req_\w+\)$/m);
      expect(wrongToken.stderr).toMatch(/^hint: check ADMIN_TOKEN/m);

      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(
        /^error: There is no partner ptn_doesnotexist\. \(PARTNER_NOT_FOUND, request req_\w+\)$/m,
      );
      // --json also puts the error body on stdout for scripts.
      expect(json(missing)).toMatchObject({ status: 'error', code: 'PARTNER_NOT_FOUND' });

      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toMatch(/^ {2}- credit_limit_ghs: /m);
      expect(stagingSpend.stderr).toMatch(
        /^error: A staging key can never hold delivery:wallet:spend\. \(VALIDATION_ERROR, request req_\w+\)$/m,
      );
      expect(notLive.stderr).toContain(
        `activate it with \`partner-admin partners update ${partner.partner_id} --production on\``,
      );
      expect(notLive.stderr).toMatch(/\(PRODUCTION_NOT_ACTIVE, request req_\w+\)$/m);
    },
    SLOW,
  );

  it(
    'exits 2 for usage and configuration errors, before calling the API',
    async () => {
      const [noToken, noName, badChoice, badNumber, nothing, together] = await Promise.all([
        cli(['partners', 'list'], { ADMIN_TOKEN: undefined }),
        cli(['partners', 'create']),
        cli(['keys', 'create', 'app_x', '--env', 'prod', '--scopes', 'delivery:read']),
        cli(['partners', 'list', '--limit', 'many']),
        cli(['partners', 'update', 'ptn_x']),
        cli(['partners', 'update', 'ptn_x', '--reads-per-minute', '5']),
      ]);
      expect(noToken).toMatchObject({ code: 2, stdout: '' });
      expect(noToken.stderr).toMatch(
        /^error: no operator token: set ADMIN_TOKEN .* or pass --token/,
      );
      expect(noName.stderr).toMatch(
        /^error: required option '--name <NAME>' not specified\n\(add --help for usage\)/,
      );
      expect(badChoice.stderr).toMatch(
        /^error: option '--env <staging\|production>' argument 'prod' is invalid\. Must be one of staging, production\./,
      );
      expect(badNumber.stderr).toMatch(/argument 'many' is invalid\. Needs a whole number\./);
      expect(nothing.stderr).toMatch(
        /^error: nothing to update: give at least one option\n\(add --help for usage\)/,
      );
      expect(together.stderr).toMatch(
        /^error: --reads-per-minute and --writes-per-minute go together/,
      );
      for (const run of [noName, badChoice, badNumber, nothing, together]) expect(run.code).toBe(2);
    },
    SLOW,
  );
});
