import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundedToWallet, reversalCheckDue, salesPartner } from '../../catalog/helpers.ts';
import { hubtelEnv, startFakeHubtel, type FakeHubtel } from '../../fakes/hubtel.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { startPlatform, type PartnerSetup, type TestPlatform } from '../../helpers/harness.ts';
import { adminCli, field, json, SLOW, type Run } from '../admin-cli.ts';

let hubtel: FakeHubtel;
let p: TestPlatform;
let s: PartnerSetup;
const transfers = new FakeTransfers();
beforeAll(async () => {
  hubtel = await startFakeHubtel();
  p = await startPlatform({ env: hubtelEnv(hubtel), transfers });
  s = await salesPartner(p);
});
afterAll(async () => {
  await p.close();
  await hubtel.close();
});

const cli = (...args: string[]): Promise<Run> => adminCli(p.url, args);

describe('partner-admin: buyer refunds', () => {
  it(
    'lists a refund the provider reversed, refuses a bad wallet, and sends it again',
    async () => {
      const { saleId, reference } = await refundedToWallet(p, s, hubtel);
      transfers.settle(reference, 'reversed');
      await reversalCheckDue(p, saleId);
      await p.app.platform.catalog!.refunds.tick();

      const listed = await cli('refunds', 'list', '--status', 'reversed');
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(
        new RegExp(
          `^${saleId} +reversed +mobile money \\(fake\\) +GHS [\\d.]+ +reversed by the bank`,
          'm',
        ),
      );
      const bad = await cli(
        'refunds',
        'wallet',
        saleId,
        '--network',
        'mtn',
        '--number',
        '030 221 1234',
        '--name',
        'Ama Mensah',
      );
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain('VALIDATION_ERROR');
      const retried = await cli('refunds', 'retry', saleId);
      expect(retried.code, retried.stderr).toBe(0);
      expect(field(retried, 'status')).toBe('succeeded');
      expect(field(retried, 'earlier references')).toBe(reference);
      expect((await cli('refunds', 'retry', saleId)).stderr).toContain('INVALID_TRANSITION');
      expect(
        json(await cli('refunds', 'list', '--status', 'succeeded', '--json')).refunds.map(
          (r: { sale_id: string }) => r.sale_id,
        ),
      ).toContain(saleId);
    },
    SLOW,
  );
});
