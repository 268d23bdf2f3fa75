import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, startPlatform, type TestPlatform } from '../helpers/harness.ts';
import { creditedTopup, PAYSTACK_HEADER } from '../reconciliation/helpers.ts';
import { adminCli, json, SLOW, type Run } from './admin-cli.ts';

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p.close());

const cli = (...args: string[]): Promise<Run> => adminCli(p.url, args);

describe('partner-admin reconcile', () => {
  it('imports a report from a file once, reconciles a day, lists and shows it', async () => {
    const s = await createPartner(p, { environment: 'production' });
    const ref = await creditedTopup(p, s, 'paystack', 6_000, new Date('2026-10-03T09:00:00Z'));
    const file = join(mkdtempSync(join(tmpdir(), 'recon-')), 'paystack.csv');
    writeFileSync(file, `${PAYSTACK_HEADER}\ntransaction,${ref},60.00,1.17,success,2026-10-03T09:00:00Z,CLI_SET\ntransaction,serviceD_WAstranger,5.00,0.10,success,2026-10-03T09:30:00Z,CLI_SET\n`);

    const imported = await cli('reconcile', 'import', '--gateway', 'paystack', '--file', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^imported: +2$/m);
    expect(json(await cli('reconcile', 'import', '--gateway', 'paystack', '--file', file, '--json'))).toMatchObject({ inserted: 0, already_imported: 2 });

    const day = await cli('reconcile', 'day', '--gateway', 'paystack', '--date', '2026-10-03');
    expect(day.code, day.stderr).toBe(0);
    expect(day.stdout).toMatch(/^status: +flagged$/m);
    expect(day.stdout).toMatch(/^missing_in_ledger +serviceD_WAstranger +- +GHS 5\.00 /m);
    const shown = json(await cli('reconcile', 'show', 'paystack', '2026-10-03', '--json'));
    expect(shown).toMatchObject({ status: 'flagged', matched: 1, differences: 1, residue_pesewas: -6_000 });
    expect((await cli('reconcile', 'list', '--gateway', 'paystack')).stdout).toMatch(/^paystack +2026-10-03 +flagged +1 +1 /m);

    const cash = json(await cli('reconcile', 'day', '--gateway', 'rider_cash', '--date', '2026-10-03', '--json'));
    expect(cash).toMatchObject({ source: 'rider_cash', status: 'matched', matched: 0 });

    const missing = await cli('reconcile', 'import', '--gateway', 'paystack', '--file', join(tmpdir(), 'no-such-report.csv'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read --file');
    const badDay = await cli('reconcile', 'day', '--gateway', 'paystack', '--date', '2026-13-01');
    expect(badDay.code).not.toBe(0);
    expect(badDay.stderr).toContain('VALIDATION_ERROR');
  }, SLOW);
});
