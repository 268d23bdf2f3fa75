import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audited } from '../../helpers/audit.ts';
import { accountBalance } from '../../helpers/ledger-read.ts';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { operatorWithToken } from '../../operators/helpers.ts';
import { expectLedgerConsistent } from '../../wallet/helpers.ts';
import { creditedTopup, PAYSTACK_HEADER } from '../helpers.ts';

// Maker-checker on settlements: an import proposes, a second finance operator approves, then it posts.

let p: TestPlatform;
let s: PartnerSetup;
let maker: string;
let checker: string;
let support: string;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  s = await createPartner(p, { environment: 'production' });
  const [a, b, c] = await Promise.all([
    operatorWithToken(p, ['finance']),
    operatorWithToken(p, ['finance']),
    operatorWithToken(p, ['support']),
  ]);
  [maker, checker, support] = [a.token, b.token, c.token];
});
afterAll(() => p?.close());

const posted = async (subject: string) =>
  (await p.app.platform.journals.about(['gateway_settlement'], subject)).length;
const approve = (id: string, token?: string) =>
  p.admin('POST', `/reconciliation/settlements/${id}/approve`, undefined, token);
const reject = (id: string, body: unknown, token?: string) =>
  p.admin('POST', `/reconciliation/settlements/${id}/reject`, body, token);

/** A paid top-up and the report of its settlement, imported with `token`; answers the proposed settlement. */
async function proposed(
  settlementId: string,
  day: string,
  token?: string,
): Promise<Record<string, any>> {
  const a = await creditedTopup(p, s, 'paystack', 10_000, new Date(`${day}T10:00:00Z`));
  const csv = [
    PAYSTACK_HEADER,
    `transaction,${a},100.00,1.95,success,${day}T10:00:00Z,${settlementId}`,
    `settlement,,100.00,1.95,success,${day}T18:00:00Z,${settlementId}`,
  ].join('\n');
  const imported = await p.admin(
    'POST',
    '/reconciliation/imports',
    { gateway: 'paystack', csv },
    token,
  );
  expect(imported.body).toMatchObject({ inserted: 2, settlements_proposed: 1 });
  const [row] = (
    await p.admin('GET', '/reconciliation/settlements?status=proposed&gateway=paystack')
  ).body.data.filter((x: any) => x.gateway_settlement_id === settlementId);
  return row;
}

describe('a settlement imported from a report', () => {
  it('posts nothing on import; its importer cannot approve it, nor can the ADMIN_TOKEN; a second finance operator can, and it posts once', async () => {
    const row = await proposed('MC_1', '2026-10-01', maker);
    expect(row).toMatchObject({
      gateway: 'paystack',
      amount_pesewas: 10_000,
      fee_pesewas: 195,
      net_pesewas: 9_805,
      status: 'proposed',
      settled_at: '2026-10-01T18:00:00.000Z',
      decided_by: null,
    });
    expect(await posted('paystack:MC_1')).toBe(0);
    // While it waits, its day is flagged: the clearing still holds the money.
    const waiting = (
      await p.admin('POST', '/reconciliation/days', { source: 'paystack', date: '2026-10-01' })
    ).body;
    expect(waiting).toMatchObject({ status: 'flagged', residue_pesewas: -10_000 });
    expect(waiting.difference_list).toEqual([
      expect.objectContaining({ kind: 'settlement_not_approved', reference: 'MC_1' }),
    ]);

    const self = await approve(row.settlement_id, maker);
    expect([self.status, self.body.code]).toEqual([409, 'SAME_OPERATOR']);
    const shared = await approve(row.settlement_id);
    expect([shared.status, shared.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await approve(row.settlement_id, support)).status).toBe(403);
    expect(await posted('paystack:MC_1')).toBe(0);

    const ok = await approve(row.settlement_id, checker);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({
      status: 'approved',
      decided_by: expect.stringMatching(/^opr_/),
      proposed_by: expect.stringMatching(/^opr_/),
    });
    expect(await posted('paystack:MC_1')).toBe(1);
    // The day reconciled while it waited is run again by the approval: now matched.
    expect((await p.admin('GET', '/reconciliation/days/paystack/2026-10-01')).body).toMatchObject({
      status: 'matched',
      residue_pesewas: 0,
      differences: 0,
    });
    const [journal] = await p.app.platform.journals.about(['gateway_settlement'], 'paystack:MC_1');
    expect(journal!.created_at.toISOString()).toBe('2026-10-01T18:00:00.000Z');
    expect((await approve(row.settlement_id, checker)).body.code).toBe('INVALID_TRANSITION');
    expect((await reject(row.settlement_id, { reason: 'too late' }, checker)).body.code).toBe(
      'INVALID_TRANSITION',
    );
    expect(await posted('paystack:MC_1')).toBe(1);
    const audit = (await audited(p, { target_id: row.settlement_id })).filter((e) =>
      e.action.startsWith('gateway_settlement.'),
    );
    expect(audit.map((a) => a.action)).toEqual(['gateway_settlement.approve']);
    await expectLedgerConsistent(p);
  });

  it('imported with the ADMIN_TOKEN is approved by a finance operator; two approving at once post it once', async () => {
    const row = await proposed('MC_2', '2026-10-02');
    expect(row.proposed_by).toBe('admin_token');
    const other = (await operatorWithToken(p, ['finance'])).token;
    const answers = await Promise.all([
      approve(row.settlement_id, checker),
      approve(row.settlement_id, other),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await posted('paystack:MC_2')).toBe(1);
    expect(await accountBalance(p, 'gateway_fees')).toBeLessThan(0);
  });

  it('rejected with a reason posts nothing; a corrected report proposes it again', async () => {
    const row = await proposed('MC_3', '2026-10-03', maker);
    const short = await reject(row.settlement_id, { reason: 'no' }, checker);
    expect([short.status, short.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect((await reject(row.settlement_id, {}, checker)).status).toBe(400);
    expect(
      (await reject(row.settlement_id, { reason: 'not in the bank statement', extra: 1 }, checker))
        .status,
    ).toBe(400);
    // Its importer may withdraw it (as with destination changes); here the checker refuses it.
    const refused = await reject(
      row.settlement_id,
      { reason: '  not in the bank statement  ' },
      checker,
    );
    expect(refused.body).toMatchObject({ status: 'rejected', reason: 'not in the bank statement' });
    expect((await approve(row.settlement_id, checker)).body.code).toBe('INVALID_TRANSITION');
    expect(await posted('paystack:MC_3')).toBe(0);
    // The same file again changes nothing; a corrected one replaces the line and is proposed anew.
    const same = await p.admin('POST', '/reconciliation/imports', {
      gateway: 'paystack',
      csv: `${PAYSTACK_HEADER}\nsettlement,,100.00,1.95,success,2026-10-03T18:00:00Z,MC_3`,
    });
    expect(same.body).toMatchObject({ already_imported: 1, settlements_proposed: 0 });
    const corrected = await p.admin('POST', '/reconciliation/imports', {
      gateway: 'paystack',
      csv: `${PAYSTACK_HEADER}\nsettlement,,100.00,2.00,success,2026-10-03T18:00:00Z,MC_3`,
    });
    expect(corrected.body).toMatchObject({
      updated: 1,
      reimported_differently: 0,
      settlements_proposed: 1,
    });
    const again = (
      await p.admin('GET', '/reconciliation/settlements?status=proposed')
    ).body.data.find((x: any) => x.gateway_settlement_id === 'MC_3');
    expect(again).toMatchObject({ fee_pesewas: 200, status: 'proposed' });
    expect((await approve(again.settlement_id, checker)).status).toBe(200);
    expect(await posted('paystack:MC_3')).toBe(1);
    expect(
      (await p.admin('GET', `/reconciliation/settlements/${row.settlement_id}`)).body,
    ).toMatchObject({ status: 'rejected', reason: 'not in the bank statement' });
  });

  it('refuses bad input on every route with 4xx and a code, changing nothing', async () => {
    const before = await countRows(p, 'select count(*)::int as n from settlement_approvals');
    expect((await approve('stl_MISSING')).status).toBe(403);
    expect((await approve('stl_MISSING', checker)).body.code).toBe('NOT_FOUND');
    expect((await approve('nope', checker)).body.code).toBe('VALIDATION_ERROR');
    expect((await approve('stl_x%00', checker)).status).toBe(400);
    expect((await reject('stl_MISSING', { reason: 'whatever it is' }, checker)).body.code).toBe(
      'NOT_FOUND',
    );
    expect((await reject('stl_MISSING', { reason: 'a\u0000b' }, checker)).status).toBe(400);
    expect((await p.admin('GET', '/reconciliation/settlements?status=posted')).status).toBe(400);
    expect((await p.admin('GET', '/reconciliation/settlements?gateway=visa')).status).toBe(400);
    expect((await p.admin('GET', '/reconciliation/settlements/stl_MISSING')).body.code).toBe(
      'NOT_FOUND',
    );
    expect((await p.admin('GET', '/reconciliation/settlements', undefined, support)).status).toBe(
      403,
    );
    expect(await countRows(p, 'select count(*)::int as n from settlement_approvals')).toBe(before);
  });
});
