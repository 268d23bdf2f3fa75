import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVendor } from '../catalog/helpers.ts';
import { operatorWithToken } from '../operators/helpers.ts';
import { startPlatform, type TestPlatform } from '../helpers/harness.ts';
import { HOUR, settleSale } from '../payouts/helpers.ts';
import { adminCli, json, SLOW, type Run } from './admin-cli.ts';

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p.close());

const cli = (...args: string[]): Promise<Run> => adminCli(p.url, args);

describe('partner-admin: payouts', () => {
  it("sets a vendor's wallet, runs payouts through the same routes and shows the payout's lines", async () => {
    const vendorId = (await createVendor(p)).vendor_id as string;
    const set = await cli('payees', 'destination', 'vendor', vendorId, '--kind', 'mobile_money', '--network', 'mtn', '--number', '024 123 4567', '--name', 'Kofi Boateng');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^number: +0241234567$/m);
    const changeId = /^change: +(pdc_\w+)$/m.exec(set.stdout)![1]!;
    // Proposed with the ADMIN_TOKEN, which never approves: a second (finance) operator approves it.
    expect((await cli('payees', 'approve-destination', 'vendor', vendorId, '--change', changeId)).stderr).toContain('FORBIDDEN');
    const checker = await operatorWithToken(p, ['finance']);
    const changed = await adminCli(p.url, ['payees', 'approve-destination', 'vendor', vendorId, '--change', changeId], { ADMIN_TOKEN: checker.token });
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toMatch(/^number: +0241234567$/m);
    expect((await cli('payees', 'reject-destination', 'vendor', vendorId, '--change', changeId)).stderr).toContain('INVALID_TRANSITION');
    expect((await cli('payees', 'schedule', vendorId, '--schedule', 'same_day')).stdout).toMatch(/^schedule: +same_day$/m);
    await settleSale(p, `vendor_payable:${vendorId}`, 2500, Date.now() - 30 * HOUR);
    expect(json(await cli('payees', 'show', 'vendor', vendorId, '--json')).available_pesewas).toBe(2500);

    // A destination set just now is cooling: the payout waits for a second operator's approval.
    const ran = await cli('payouts', 'run');
    expect(ran.code, ran.stderr).toBe(0);
    const held = json(await cli('payouts', 'list', '--status', 'awaiting_approval', '--payee', `vendor:${vendorId}`, '--json')).data[0];
    expect(held).toMatchObject({ amount_pesewas: 2500, approval_reasons: ['destination_changed'] });
    // The ADMIN_TOKEN ran it; the shared token never approves. A finance operator can.
    expect((await cli('payouts', 'approve', held.id)).stderr).toContain('FORBIDDEN');
    const approved = await adminCli(p.url, ['payouts', 'approve', held.id], { ADMIN_TOKEN: checker.token });
    expect(approved.stdout).toMatch(/^status: +paid$/m);
    const shown = await cli('payouts', 'show', held.id);
    expect(shown.stdout).toMatch(/^sale_settlement +sale_\w+ +GHS 25\.00$/m);
    expect((await cli('payouts', 'runs')).stdout).toContain('manual');
    const bad = await cli('payees', 'destination', 'vendor', vendorId, '--kind', 'bank', '--bank-code', '!', '--name', 'Kofi Boateng');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('VALIDATION_ERROR');
    expect((await cli('payouts', 'reject', held.id)).stderr).toContain('INVALID_TRANSITION');
  }, SLOW);
});
