import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { operatorWithToken } from '../../operators/helpers.ts';
import { creditedTopup, PAYSTACK_HEADER, STATEMENT_HEADER } from '../../reconciliation/helpers.ts';
import { adminCli, json, SLOW, type Run } from '../admin-cli.ts';

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p.close());

const cli = (...args: string[]): Promise<Run> => adminCli(p.url, args);

describe('partner-admin reconcile', () => {
  it(
    'imports a report from a file once, reconciles a day, lists and shows it',
    async () => {
      const s = await createPartner(p, { environment: 'production' });
      const ref = await creditedTopup(p, s, 'paystack', 6_000, new Date('2026-10-03T09:00:00Z'));
      const file = join(mkdtempSync(join(tmpdir(), 'recon-')), 'paystack.csv');
      writeFileSync(
        file,
        `${PAYSTACK_HEADER}\ntransaction,${ref},60.00,1.17,success,2026-10-03T09:00:00Z,CLI_SET\ntransaction,serviceD_WAstranger,5.00,0.10,success,2026-10-03T09:30:00Z,CLI_SET\n`,
      );

      const imported = await cli('reconcile', 'import', '--gateway', 'paystack', '--file', file);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toMatch(/^imported: +2$/m);
      expect(
        json(await cli('reconcile', 'import', '--gateway', 'paystack', '--file', file, '--json')),
      ).toMatchObject({ inserted: 0, already_imported: 2 });

      const day = await cli('reconcile', 'day', '--gateway', 'paystack', '--date', '2026-10-03');
      expect(day.code, day.stderr).toBe(0);
      expect(day.stdout).toMatch(/^status: +flagged$/m);
      expect(day.stdout).toMatch(/^missing_in_ledger +serviceD_WAstranger +- +GHS 5\.00 /m);
      const shown = json(await cli('reconcile', 'show', 'paystack', '2026-10-03', '--json'));
      expect(shown).toMatchObject({
        status: 'flagged',
        matched: 1,
        differences: 1,
        residue_pesewas: -6_000,
      });
      expect((await cli('reconcile', 'list', '--gateway', 'paystack')).stdout).toMatch(
        /^paystack +2026-10-03 +flagged +1 +1 /m,
      );

      const cash = json(
        await cli('reconcile', 'day', '--gateway', 'rider_cash', '--date', '2026-10-03', '--json'),
      );
      expect(cash).toMatchObject({ source: 'rider_cash', status: 'matched', matched: 0 });

      const missing = await cli(
        'reconcile',
        'import',
        '--gateway',
        'paystack',
        '--file',
        join(tmpdir(), 'no-such-report.csv'),
      );
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('cannot read --file');
      const badDay = await cli('reconcile', 'day', '--gateway', 'paystack', '--date', '2026-13-01');
      expect(badDay.code).not.toBe(0);
      expect(badDay.stderr).toContain('VALIDATION_ERROR');
    },
    SLOW,
  );

  it(
    'lists, shows, approves (a second operator) and rejects settlements, imports a transfer statement and reconciles money out; --help names each route',
    async () => {
      const s = await createPartner(p, { environment: 'production' });
      const ref = await creditedTopup(p, s, 'paystack', 4_000, new Date('2026-10-05T09:00:00Z'));
      const dir = mkdtempSync(join(tmpdir(), 'recon-'));
      const report = join(dir, 'paystack.csv');
      writeFileSync(
        report,
        `${PAYSTACK_HEADER}\ntransaction,${ref},40.00,0.78,success,2026-10-05T09:00:00Z,CLI_OK\nsettlement,,40.00,0.78,success,2026-10-06,CLI_OK\nsettlement,,3.00,0,success,2026-10-06,CLI_BAD\n`,
      );
      expect(
        (await cli('reconcile', 'import', '--gateway', 'paystack', '--file', report)).stdout,
      ).toMatch(/^settlements proposed: +2$/m);

      const waiting = json(
        await cli('reconcile', 'settlements', '--status', 'proposed', '--json'),
      ).data;
      const ok = waiting.find((x: any) => x.gateway_settlement_id === 'CLI_OK');
      const bad = waiting.find((x: any) => x.gateway_settlement_id === 'CLI_BAD');
      expect((await cli('reconcile', 'settlements', '--status', 'proposed')).stdout).toMatch(
        new RegExp(
          `^${ok.settlement_id} +paystack +CLI_OK +GHS 40\\.00 +GHS 0\\.78 +proposed +admin_token +- *$`,
          'm',
        ),
      );
      // The ADMIN_TOKEN imported it, and never approves: a finance operator does, with their own token.
      const shared = await cli('reconcile', 'approve-settlement', ok.settlement_id);
      expect(shared.code).not.toBe(0);
      expect(shared.stderr).toContain('FORBIDDEN');
      const checker = await operatorWithToken(p, ['finance']);
      const approved = await adminCli(
        p.url,
        ['reconcile', 'approve-settlement', ok.settlement_id],
        { ADMIN_TOKEN: checker.token },
      );
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toMatch(/^status: +approved$/m);
      const rejected = await cli(
        'reconcile',
        'reject-settlement',
        bad.settlement_id,
        '--reason',
        'not on the bank statement',
      );
      expect(rejected.stdout).toMatch(/^reason: +not on the bank statement$/m);
      expect(json(await cli('reconcile', 'settlement', bad.settlement_id, '--json'))).toMatchObject(
        { status: 'rejected', decided_by: 'admin_token' },
      );
      expect((await cli('reconcile', 'reject-settlement', bad.settlement_id)).code).toBe(2);

      const statement = join(dir, 'transfers.csv');
      writeFileSync(
        statement,
        `${STATEMENT_HEADER}\ntrf_cli_stranger,TRF_1,5.00,0.10,GHS,success,2026-10-05T10:00:00Z\n`,
      );
      const imported = await cli('reconcile', 'statement', '--file', statement);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toMatch(/^fees booked: +0$/m);
      const day = await cli('reconcile', 'day', '--gateway', 'transfers', '--date', '2026-10-05');
      expect(day.stdout).toMatch(/^missing_in_ledger +trf_cli_stranger +- +GHS 5\.00 /m);
      writeFileSync(
        statement,
        `${STATEMENT_HEADER}\ntrf_cli_stranger,TRF_1,6.00,0.10,GHS,success,2026-10-05T10:00:00Z\n`,
      );
      expect((await cli('reconcile', 'statement', '--file', statement)).stdout).toMatch(
        /^imported again differently: +1$/m,
      );
      const shown = await cli('reconcile', 'show', 'transfers', '2026-10-05');
      expect(shown.stdout).toContain('Imported again differently:');
      expect(shown.stdout).toMatch(
        /^transfer +trf_cli_stranger +GHS 5\.00 fee GHS 0\.10 success +GHS 6\.00 fee GHS 0\.10 success +admin_token *$/m,
      );
      writeFileSync(statement, `${STATEMENT_HEADER}\nbad ref,,1,0,GHS,success,2026-10-05\n`);
      expect((await cli('reconcile', 'statement', '--file', statement)).stderr).toContain(
        'VALIDATION_ERROR',
      );

      const helps = await Promise.all(
        ['statement', 'settlements', 'settlement', 'approve-settlement', 'reject-settlement'].map(
          (c) => cli('reconcile', c, '--help'),
        ),
      );
      expect(helps.map((h) => /Calls (\S+ \S+)\./.exec(h.stdout)?.[1])).toEqual([
        'POST /admin/v1/reconciliation/transfer-statements',
        'GET /admin/v1/reconciliation/settlements',
        'GET /admin/v1/reconciliation/settlements/:settlement_id',
        'POST /admin/v1/reconciliation/settlements/:settlement_id/approve',
        'POST /admin/v1/reconciliation/settlements/:settlement_id/reject',
      ]);
    },
    SLOW,
  );
});
