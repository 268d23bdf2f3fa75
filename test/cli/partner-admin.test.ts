import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUsage } from '../../src/cli/args.ts';
import { commands, groups } from '../../src/cli/commands.ts';
import { ADMIN_TOKEN, startPlatform, type TestPlatform } from '../helpers/harness.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let p: TestPlatform;

beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p.close());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node bin/partner-admin.mjs ...args` against the test platform; `env` entries set to undefined are removed. */
function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const merged: Record<string, string | undefined> = { ...process.env, PARTNER_ADMIN_URL: p.url, ADMIN_TOKEN, ...env };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/partner-admin.mjs', ...args], { cwd: ROOT, env: merged as NodeJS.ProcessEnv, timeout: 20_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const json = (run: Run) => JSON.parse(run.stdout);

describe('partner-admin', () => {
  it('has a readable usage line and a known group for every command', () => {
    for (const c of commands) {
      expect(Object.keys(groups)).toContain(c.name.split(' ')[0]);
      const spec = parseUsage(c.usage);
      for (const name of Object.keys(c.help ?? {})) {
        expect([...spec.positionals.map((x) => x.name), ...spec.options.map((o) => o.flag)]).toContain(name);
      }
    }
    expect(parseUsage('ID [--n N] [--a x|y --b]')).toEqual({
      positionals: [{ name: 'ID', required: true }],
      options: [
        { flag: 'n', placeholder: 'N', required: false, kind: { type: 'int' } },
        { flag: 'a', placeholder: 'x|y', required: false, kind: { type: 'choice', choices: ['x', 'y'] } },
        { flag: 'b', placeholder: undefined, required: false, kind: { type: 'switch' } },
      ],
    });
  });

  it('prints help at every level', async () => {
    const [top, command] = await Promise.all([cli(['--help']), cli(['partners', 'update', '--help'])]);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/Usage: partner-admin <group> <command>/);
    for (const word of ['partners', 'apps', 'keys', 'revoke', 'PARTNER_ADMIN_URL', 'ADMIN_TOKEN']) expect(top.stdout).toContain(word);
    expect(command.code).toBe(0);
    expect(command.stdout).toContain('--status active|suspended');
    expect(command.stdout).toContain('--default-limits');
  });

  it('manages a partner, an app and keys; human output and --json', async () => {
    // Human output: an aligned block.
    const created = await cli(['partners', 'create', '--name', 'Acme Deliveries']);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toMatch(/^partner id: +ptn_\w+$/m);
    expect(created.stdout).toMatch(/^status: +active$/m);
    expect(created.stdout).toMatch(/^credit limit: +GHS 0\.00$/m);
    const partnerId = /^partner id: +(\w+)$/m.exec(created.stdout)![1]!;

    const updated = await cli([
      'partners', 'update', partnerId, '--production', 'on', '--credit-limit', '250.5',
      '--reads-per-minute', '30', '--writes-per-minute', '10', '--json',
    ]);
    expect(updated.code).toBe(0);
    expect(json(updated)).toMatchObject({
      partner_id: partnerId, production_active: true, credit_limit_ghs: 250.5, rate_limits: { reads_per_minute: 30, writes_per_minute: 10 },
    });

    const [suspended, list] = await Promise.all([
      cli(['partners', 'suspend', partnerId]),
      cli(['partners', 'list', '--limit', '200']),
    ]);
    expect(suspended.stdout).toMatch(/^status: +suspended$/m);
    expect(suspended.stdout).toMatch(/^rate limits: +30 reads\/min, 10 writes\/min$/m);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^PARTNER ID +NAME +STATUS +PRODUCTION/);
    expect(list.stdout).toMatch(new RegExp(`^${partnerId} +Acme Deliveries +`, 'm'));
    expect((await p.admin('GET', `/partners/${partnerId}`)).body.status).toBe('suspended');

    const app = await cli(['apps', 'create', partnerId, '--name', 'Shop', '--webhook-url', 'https://example.com/hooks', '--json']);
    expect(app.code).toBe(0);
    const appBody = json(app);
    expect(appBody).toMatchObject({ name: 'Shop', webhook_url: 'https://example.com/hooks', webhook_secret: expect.stringMatching(/^whsec_/) });

    const key = await cli(['keys', 'create', appBody.app_id, '--env', 'production', '--scopes', 'delivery:read,delivery:write']);
    expect(key.code).toBe(0);
    expect(key.stdout).toMatch(/^api key: +pk_production_\S+$/m);
    expect(key.stdout).toMatch(/^signing secret: +sk_production_\S+$/m);
    expect(key.stdout).toMatch(/^scopes: +delivery:read,delivery:write$/m);
    expect(key.stdout).toMatch(/cannot be retrieved again: store it now/);
    const keyId = /^key id: +(\w+)$/m.exec(key.stdout)![1]!;

    const [apps, revoked] = await Promise.all([cli(['apps', 'list', partnerId]), cli(['keys', 'revoke', keyId])]);
    expect(apps.stdout).toMatch(new RegExp(`^${appBody.app_id} +${partnerId} +Shop +https://example.com/hooks`, 'm'));
    expect(revoked).toMatchObject({ code: 0, stdout: expect.stringContaining(`Revoked key ${keyId}`) });

    const keys = await cli(['keys', 'list', appBody.app_id, '--json']);
    expect(json(keys).keys).toEqual([
      expect.objectContaining({ key_id: keyId, environment: 'production', revoked_at: expect.any(String) }),
    ]);
    expect(keys.stdout).not.toContain('sk_production_');
  });

  it('reports API errors with code and request id on stderr and exits 1', async () => {
    const partner = (await p.admin('POST', '/partners', { name: 'Errors Ltd' })).body;
    const app = (await p.admin('POST', `/partners/${partner.partner_id}/apps`, { name: 'Errors App' })).body;
    const [wrongToken, missing, invalid, stagingSpend] = await Promise.all([
      // The env URL is wrong on purpose: --url overrides it.
      cli(['partners', 'list', '--token', 'not-the-admin-token-at-all', '--url', p.url], { PARTNER_ADMIN_URL: 'http://127.0.0.1:9' }),
      cli(['partners', 'get', 'ptn_doesnotexist', '--json']),
      cli(['partners', 'update', partner.partner_id, '--credit-limit=-5']),
      cli(['keys', 'create', app.app_id, '--env', 'staging', '--scopes', 'delivery:read,delivery:wallet:spend']),
    ]);

    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stdout).toBe('');
    expect(wrongToken.stderr).toMatch(/^error: .+ \(INVALID_ADMIN_TOKEN, request req_\w+\)$/m);
    expect(wrongToken.stderr).toMatch(/^hint: check ADMIN_TOKEN/m);

    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: There is no partner ptn_doesnotexist\. \(PARTNER_NOT_FOUND, request req_\w+\)$/m);
    // --json also puts the error body on stdout for scripts.
    const body = json(missing);
    expect(body).toMatchObject({ status: 'error', code: 'PARTNER_NOT_FOUND' });
    expect(missing.stderr).toContain(body.request_id);

    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^error: .+ \(VALIDATION_ERROR, request req_\w+\)$/m);
    expect(invalid.stderr).toMatch(/^ {2}- credit_limit_ghs: /m);

    expect(stagingSpend.code).toBe(1);
    expect(stagingSpend.stderr).toMatch(/^error: A staging key can never hold delivery:wallet:spend\. \(VALIDATION_ERROR, request req_\w+\)$/m);
  });

  it('exits 2 for usage and configuration errors, before calling the API', async () => {
    const [noToken, noName, badChoice, unknown] = await Promise.all([
      cli(['partners', 'list'], { ADMIN_TOKEN: undefined }),
      cli(['partners', 'create']),
      cli(['keys', 'create', 'app_x', '--env', 'prod', '--scopes', 'delivery:read']),
      cli(['partners', 'delete', 'ptn_x']),
    ]);
    expect(noToken).toMatchObject({ code: 2, stdout: '' });
    expect(noToken.stderr).toMatch(/^error: no operator token: set ADMIN_TOKEN .* or pass --token/);

    expect(noName.code).toBe(2);
    expect(noName.stderr).toMatch(/^error: missing --name NAME\n\nUsage: partner-admin partners create --name NAME/);

    expect(badChoice.code).toBe(2);
    expect(badChoice.stderr).toMatch(/^error: --env must be one of staging, production \(got "prod"\)/);

    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: unknown command "partners delete"/);
    expect(unknown.stderr).toContain('partner-admin partners suspend PARTNER_ID');
  });
});
