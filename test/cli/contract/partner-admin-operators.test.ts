import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { codeFor, passwordFile } from '../../operators/helpers.ts';
import { adminCli, field, json, SLOW } from '../admin-cli.ts';

let p: TestPlatform;
let dir: string;
beforeAll(async () => {
  p = await startPlatform();
  dir = mkdtempSync(`${tmpdir()}/operators-cli-`);
});
afterAll(async () => {
  await p.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('partner-admin: operators, their tokens, TOTP, the audit log and the activation queue', () => {
  it('bootstraps an operator with the ADMIN_TOKEN, then works with the operator token', {
    timeout: SLOW,
  }, async () => {
    const created = await adminCli(p.url, [
      'operators',
      'create',
      '--email',
      'esi@example.com',
      '--name',
      'Esi',
      '--roles',
      'admin,support',
      '--password-file',
      passwordFile(dir),
    ]);
    expect(created.code, created.stderr).toBe(0);
    const operatorId = field(created, 'operator id');
    expect(operatorId).toMatch(/^opr_/);
    const token = json(
      await adminCli(p.url, [
        'operator-tokens',
        'create',
        operatorId,
        '--name',
        'laptop',
        '--json',
      ]),
    ).token as string;
    expect(token).toMatch(/^opt_/);
    const asOperator = (...args: string[]) => adminCli(p.url, args, { ADMIN_TOKEN: token });
    const enrol = json(await asOperator('totp', 'enrol', operatorId, '--json'));
    const confirm = await asOperator(
      'totp',
      'confirm',
      operatorId,
      '--code',
      codeFor(enrol.totp_secret, Date.now()),
    );
    expect(confirm.code, confirm.stderr).toBe(0);
    expect(field(confirm, 'totp')).toBe('yes');
    const list = await asOperator('operators', 'list');
    expect(list.stdout).toContain('esi@example.com');
    const audit = json(await asOperator('audit', 'search', '--actor', operatorId, '--json'));
    expect(audit.entries.map((e: { action: string }) => e.action)).toEqual([
      'operator.totp_confirm',
      'operator.totp_enrol',
    ]);
    expect((await asOperator('activation', 'list', '--state', 'submitted')).stdout).toContain(
      '(no activation requests)',
    );
    expect((await asOperator('operators', 'update', operatorId, '--roles', 'support')).code).toBe(
      1,
    );
    const revoked = await adminCli(p.url, [
      'operator-tokens',
      'revoke',
      json(await adminCli(p.url, ['operator-tokens', 'list', operatorId, '--json'])).tokens[0]
        .token_id,
    ]);
    expect(revoked.code).toBe(0);
    const refused = await asOperator('partners', 'list');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('INVALID_ADMIN_TOKEN');
  });
});
