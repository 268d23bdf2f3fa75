import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVendor } from '../../catalog/helpers.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { operatorWithToken } from '../../operators/helpers.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { HOUR, settleSale } from '../../payouts/helpers.ts';
import { adminCli, json, SLOW, type Run } from '../admin-cli.ts';

let p: TestPlatform;
const fake = new FakeTransfers();
beforeAll(async () => {
  p = await startPlatform({ transfers: fake });
});
afterAll(() => p.close());

const cli = (...args: string[]): Promise<Run> => adminCli(p.url, args);

describe('partner-admin: payouts', () => {
  it(
    "sets a vendor's wallet, runs payouts through the same routes and shows the payout's lines",
    async () => {
      const vendorId = (await createVendor(p)).vendor_id as string;
      const set = await cli(
        'payees',
        'destination',
        'vendor',
        vendorId,
        '--kind',
        'mobile_money',
        '--network',
        'mtn',
        '--number',
        '024 123 4567',
        '--name',
        'Kofi Boateng',
      );
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toMatch(/^number: +0241234567$/m);
      const changeId = /^change: +(pdc_\w+)$/m.exec(set.stdout)![1]!;
      // Proposed with the ADMIN_TOKEN, which never approves: a second (finance) operator approves it.
      expect(
        (await cli('payees', 'approve-destination', 'vendor', vendorId, '--change', changeId))
          .stderr,
      ).toContain('FORBIDDEN');
      const checker = await operatorWithToken(p, ['finance']);
      const changed = await adminCli(
        p.url,
        ['payees', 'approve-destination', 'vendor', vendorId, '--change', changeId],
        { ADMIN_TOKEN: checker.token },
      );
      expect(changed.code, changed.stderr).toBe(0);
      expect(changed.stdout).toMatch(/^number: +0241234567$/m);
      expect(
        (await cli('payees', 'reject-destination', 'vendor', vendorId, '--change', changeId))
          .stderr,
      ).toContain('INVALID_TRANSITION');
      expect((await cli('payees', 'schedule', vendorId, '--schedule', 'same_day')).stdout).toMatch(
        /^schedule: +same_day$/m,
      );
      await settleSale(p, `vendor_payable:${vendorId}`, 2500, Date.now() - 30 * HOUR);
      expect(
        json(await cli('payees', 'show', 'vendor', vendorId, '--json')).available_pesewas,
      ).toBe(2500);

      // A destination set just now is cooling: the payout waits for a second operator's approval.
      // Answered at once; --wait follows the background worker to the end (plain progress lines off a terminal).
      const ran = await cli('payouts', 'run', '--wait');
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toMatch(/^status: +done$/m);
      expect(ran.stderr).toMatch(/^\d+\/\d+ done: \d+ created, \d+ sent, \d+ paid, \d+ failed$/m);
      const runId = /^run: +(prun_\w+)$/m.exec(ran.stdout)![1]!;
      const followed = await cli('payouts', 'runs-show', runId, '--wait');
      expect(followed.stdout).toMatch(/^awaiting approval: +1$/m);
      expect(
        (await cli('payouts', 'runs-show', 'prun_01J00000000000000000000000')).stderr,
      ).toContain('PAYOUT_RUN_NOT_FOUND');
      const held = json(
        await cli(
          'payouts',
          'list',
          '--status',
          'awaiting_approval',
          '--payee',
          `vendor:${vendorId}`,
          '--json',
        ),
      ).data[0];
      expect(held).toMatchObject({
        amount_pesewas: 2500,
        approval_reasons: ['destination_changed'],
      });
      // The ADMIN_TOKEN ran it; the shared token never approves. A finance operator can.
      expect((await cli('payouts', 'approve', held.id)).stderr).toContain('FORBIDDEN');
      const approved = await adminCli(p.url, ['payouts', 'approve', held.id], {
        ADMIN_TOKEN: checker.token,
      });
      expect(approved.stdout).toMatch(/^status: +paid$/m);
      const shown = await cli('payouts', 'show', held.id);
      expect(shown.stdout).toMatch(/^sale_settlement +sale_\w+ +GHS 25\.00$/m);
      expect((await cli('payouts', 'runs')).stdout).toContain('manual');
      const bad = await cli(
        'payees',
        'destination',
        'vendor',
        vendorId,
        '--kind',
        'bank',
        '--bank-code',
        '!',
        '--name',
        'Kofi Boateng',
      );
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain('VALIDATION_ERROR');
      expect((await cli('payouts', 'reject', held.id)).stderr).toContain('INVALID_TRANSITION');
    },
    SLOW,
  );

  it(
    'shows a payout cancelled by a destination change and its replacement, and accepts a destination that needs review',
    async () => {
      const vendorId = (await createVendor(p)).vendor_id as string;
      const [checker, reviewer] = [
        await operatorWithToken(p, ['finance']),
        await operatorWithToken(p, ['finance']),
      ];
      const as = (token: string, ...args: string[]) =>
        adminCli(p.url, args, { ADMIN_TOKEN: token });
      const change = async (number: string) => {
        const proposed = await cli(
          'payees',
          'destination',
          'vendor',
          vendorId,
          '--kind',
          'mobile_money',
          '--network',
          'mtn',
          '--number',
          number,
          '--name',
          'Kofi Boateng',
        );
        return as(
          checker.token,
          'payees',
          'approve-destination',
          'vendor',
          vendorId,
          '--change',
          /^change: +(pdc_\w+)$/m.exec(proposed.stdout)![1]!,
        );
      };
      expect((await change('024 765 0001')).stdout).toMatch(/^verification: +verified$/m);
      await settleSale(p, `vendor_payable:${vendorId}`, 2500, Date.now() - 30 * HOUR);
      await cli('payouts', 'run');
      const held = json(await cli('payouts', 'list', '--payee', `vendor:${vendorId}`, '--json'))
        .data[0].id as string;

      fake.registeredNames.set('0557650002', 'AMA SERWAA MENSAH');
      const changed = await change('055 765 0002');
      expect(changed.code, changed.stderr).toBe(0);
      expect(changed.stdout).toMatch(/^verification: +needs_review$/m);
      const replacement = new RegExp(
        `^  ${held} cancelled, replaced by (pout_\\w+) \\(awaiting_approval\\)$`,
        'm',
      ).exec(changed.stdout)?.[1];
      expect(replacement, changed.stdout).toBeDefined();
      expect((await cli('payouts', 'list', '--payee', `vendor:${vendorId}`)).stdout).toContain(
        `cancelled, replaced by ${replacement}`,
      );
      expect((await cli('payouts', 'show', held)).stdout).toMatch(
        new RegExp(`^status: +cancelled, replaced by ${replacement}$`, 'm'),
      );
      const shown = (await cli('payees', 'show', 'vendor', vendorId)).stdout;
      expect(shown).toMatch(/^verification: +needs_review$/m);
      expect(shown).toMatch(/^registered name: +AMA SERWAA MENSAH$/m);

      // The approver may not accept it, nor the ADMIN_TOKEN; a bad version is refused before anything is sent.
      expect(
        (
          await as(
            checker.token,
            'payees',
            'accept-destination',
            'vendor',
            vendorId,
            '--destination-version',
            '2',
          )
        ).stderr,
      ).toContain('SAME_OPERATOR');
      expect(
        (
          await cli(
            'payees',
            'accept-destination',
            'vendor',
            vendorId,
            '--destination-version',
            '2',
          )
        ).stderr,
      ).toContain('FORBIDDEN');
      expect(
        (
          await as(
            reviewer.token,
            'payees',
            'accept-destination',
            'vendor',
            vendorId,
            '--destination-version',
            'two',
          )
        ).code,
      ).not.toBe(0);
      expect(
        (
          await as(
            reviewer.token,
            'payees',
            'accept-destination',
            'vendor',
            vendorId,
            '--destination-version',
            '1',
          )
        ).stderr,
      ).toContain('INVALID_TRANSITION');
      const accepted = await as(
        reviewer.token,
        'payees',
        'accept-destination',
        'vendor',
        vendorId,
        '--destination-version',
        '2',
      );
      expect(accepted.code, accepted.stderr).toBe(0);
      expect(accepted.stdout).toMatch(/^verification: +verified$/m);
    },
    SLOW,
  );
});
