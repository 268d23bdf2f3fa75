import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { journalCount } from '../../helpers/ledger-read.ts';
import { approveSettlements, creditedTopup, PAYSTACK_HEADER } from '../helpers.ts';

// A gateway's report line imported again with another amount, fee or status is never dropped.

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  s = await createPartner(p, { environment: 'production' });
});
afterAll(() => p?.close());

const importReport = (csv: string, gateway = 'paystack') =>
  p.admin('POST', '/reconciliation/imports', { gateway, csv });
const day = async (date: string) =>
  (await p.admin('GET', `/reconciliation/days/paystack/${date}`)).body;

describe('a line imported again', () => {
  it('with another amount, fee or status is kept beside the first, listed on its day (no longer matched) with both versions; the same line again changes nothing', async () => {
    const a = await creditedTopup(p, s, 'paystack', 10_000, new Date('2026-10-20T10:00:00Z'));
    const line = (amount: string, fee: string, status: string) =>
      `transaction,${a},${amount},${fee},${status},2026-10-20T10:00:00Z,RSET_20`;
    const settled = [
      PAYSTACK_HEADER,
      line('100.00', '1.95', 'success'),
      'settlement,,100.00,1.95,success,2026-10-21,RSET_20',
    ].join('\n');
    expect((await importReport(settled)).body).toMatchObject({ inserted: 2 });
    await approveSettlements(p);
    expect(
      (await p.admin('POST', '/reconciliation/days', { source: 'paystack', date: '2026-10-20' }))
        .body,
    ).toMatchObject({ status: 'matched', matched: 1 });

    // The identical line again: a no-op, the day stays matched.
    expect((await importReport(settled)).body).toMatchObject({
      inserted: 0,
      updated: 0,
      already_imported: 2,
      reimported_differently: 0,
    });
    expect((await day('2026-10-20')).status).toBe('matched');

    for (const [changed, note] of [
      [line('120.00', '1.95', 'success'), 'GHS 120.00, fee 1.95, success'],
      [line('100.00', '2.50', 'success'), 'GHS 100.00, fee 2.50, success'],
      [line('100.00', '1.95', 'reversed'), 'GHS 100.00, fee 1.95, reversed'],
    ] as const) {
      const again = await importReport(`${PAYSTACK_HEADER}\n${changed}`);
      expect(again.body, changed).toMatchObject({
        inserted: 0,
        updated: 0,
        already_imported: 0,
        reimported_differently: 1,
      });
      // The day was reconciled: the import ran it again, so its stored result lists the second version.
      const listed = await day('2026-10-20');
      expect(listed.status).toBe('differences');
      expect(listed.difference_list.at(-1)).toEqual({
        kind: 'reimported_differently',
        reference: a,
        ledger_pesewas: null,
        report_pesewas: expect.any(Number),
        note: `the payment was imported again as ${note}; first as GHS 100.00, fee 1.95, success`,
      });
      // The same second version again is not a third one.
      expect((await importReport(`${PAYSTACK_HEADER}\n${changed}`)).body).toMatchObject({
        already_imported: 1,
        reimported_differently: 0,
      });
    }
    const shown = await day('2026-10-20');
    expect(shown.differences).toBe(3);
    expect(
      shown.reimported.map((v: any) => [
        v.held.amount_pesewas,
        v.held.fee_pesewas,
        v.held.status,
        v.reimported.amount_pesewas,
        v.reimported.fee_pesewas,
        v.reimported.status,
      ]),
    ).toEqual([
      [10_000, 195, 'success', 12_000, 195, 'success'],
      [10_000, 195, 'success', 10_000, 250, 'success'],
      [10_000, 195, 'success', 10_000, 195, 'reversed'],
    ]);
    expect(shown.reimported[0].reimported.imported_by).toBe('admin_token');
    // The line held (and counted) is the first: nothing moved in the ledger.
    expect(
      await countRows(
        p,
        "select count(*)::int as n from gateway_report_lines where reference = $1 and amount_pesewas = 10000 and fee_pesewas = 195 and status = 'success'",
        [a],
      ),
    ).toBe(1);
  });

  it('lists a settlement imported again with another amount on its own day; the settlement stays as approved', async () => {
    const a = await creditedTopup(p, s, 'paystack', 5_000, new Date('2026-10-22T10:00:00Z'));
    await importReport(
      [
        PAYSTACK_HEADER,
        `transaction,${a},50.00,0.98,success,2026-10-22T10:00:00Z,RSET_22`,
        'settlement,,50.00,0.98,success,2026-10-23,RSET_22',
      ].join('\n'),
    );
    await approveSettlements(p);
    await p.admin('POST', '/reconciliation/days', { source: 'paystack', date: '2026-10-23' });
    expect(
      (await importReport(`${PAYSTACK_HEADER}\nsettlement,,55.00,0.98,success,2026-10-23,RSET_22`))
        .body,
    ).toMatchObject({ reimported_differently: 1, settlements_proposed: 0 });
    expect(
      (await day('2026-10-23')).difference_list.map((d: any) => [d.kind, d.reference]),
    ).toEqual([['reimported_differently', 'RSET_22']]);
    expect(await journalCount(p, ['gateway_settlement'], 'paystack:RSET_22')).toBe(1);
    expect(
      (await p.admin('GET', '/reconciliation/settlements?gateway=paystack&status=proposed')).body
        .data,
    ).toEqual([]);
  });
});
