import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectLedgerBalanced,
  getSale,
  orderBody,
  placed,
  salesPartner,
  shop,
  verifySale,
} from '../../catalog/helpers.ts';
import { hubtelEnv, startFakeHubtel, type FakeHubtel } from '../../fakes/hubtel.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import {
  countRows,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { clientReferenceOf } from '../../helpers/orders-read.ts';
import { balanceOf } from '../../payouts/helpers.ts';
import { paidPayout, statementLine, STATEMENT_HEADER } from '../helpers.ts';

// Money out: the transfer provider's statement matched against the payouts and buyer refunds we sent.

let hubtel: FakeHubtel;
let p: TestPlatform;
let s: PartnerSetup;
const fake = new FakeTransfers();
// A clock near the real one: partners' requests are signed with the real time.
const now = Date.now();
const today = new Date(now).toISOString().slice(0, 10);
beforeAll(async () => {
  hubtel = await startFakeHubtel();
  p = await startPlatform({
    socket: false,
    clock: () => now,
    env: hubtelEnv(hubtel),
    transfers: fake,
  });
  s = await salesPartner(p);
});
afterAll(async () => {
  await p.close();
  await hubtel.close();
});

const importStatement = (csv: string) =>
  p.admin('POST', '/reconciliation/transfer-statements', { csv });
const run = async (date = today) => {
  const r = await p.admin('POST', '/reconciliation/days', { source: 'transfers', date });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};
const kinds = (body: any) =>
  body.difference_list
    .map((d: any) => [d.kind, d.reference])
    .sort((x: string[], y: string[]) => x.join().localeCompare(y.join()));
const journalCount = async (kind: string, subject: string) =>
  (await p.app.platform.journals.about([kind], subject)).length;
/** The fake answers without a fee while `fn` runs, as a provider whose transfer answer leaves it out. */
async function withoutFee<T>(fn: () => Promise<T>): Promise<T> {
  const fee = fake.feePesewas;
  (fake as { feePesewas: number | null }).feePesewas = null;
  try {
    return await fn();
  } finally {
    fake.feePesewas = fee;
  }
}

/** A buyer refunded by mobile money transfer (Hubtel's checkout cannot refund), as the catalog does it. */
async function refundedByTransfer(): Promise<{
  saleId: string;
  reference: string;
  amount: number;
}> {
  const sale = await placed(s, orderBody(await shop(p), { payment_method: 'online' }));
  hubtel.pay(await clientReferenceOf(p, sale.sale_id));
  expect((await verifySale(s, sale.sale_id)).body.data).toMatchObject({ state: 'confirmed' });
  const orderId = (await getSale(s, { sale_id: sale.sale_id })).body.data.delivery.order_id;
  expect(
    (await p.admin('POST', `/delivery/orders/${orderId}/status`, { status: 'cancelled' })).status,
  ).toBe(200);
  const refunds = p.app.platform.catalog!.refunds;
  await refunds.tick();
  const sent = await refunds.sendTo(sale.sale_id, {
    network: 'mtn',
    number: '024 555 0101',
    name: 'Ama Mensah',
  });
  expect(sent.status).toBe('succeeded');
  return { saleId: sale.sale_id, reference: sent.reference, amount: Number(sent.amount_pesewas) };
}

describe('reconciling money out', () => {
  it('matches payouts and buyer refunds by reference, amount, fee and status, and books the fees their answers left out, once', async () => {
    const matched = await paidPayout(p, 5_000, now);
    const noFee = await withoutFee(() => paidPayout(p, 4_000, now));
    fake.knobs.push('fail');
    const failed = await paidPayout(p, 3_000, now);
    expect(failed.status).toBe('failed');
    const refund = await withoutFee(refundedByTransfer);
    const statusDiffers = await paidPayout(p, 1_500, now);
    // That run paid the failed payout's vendor again: a payout the statement below leaves out.
    const [unlisted] = (await p.admin('GET', `/payouts?payee=${failed.payee}&status=paid`)).body
      .data;
    expect(noFee.fee_pesewas).toBeNull();
    const fees = await balanceOf(p, 'transfer_fees');

    const csv = [
      STATEMENT_HEADER,
      statementLine(matched.id, 5_000, 100, 'success', today),
      statementLine(noFee.id, 4_000, 100, 'success', today),
      statementLine(failed.id, 3_000, 0, 'failed', today),
      statementLine(refund.reference, refund.amount, 50, 'success', today),
      statementLine(statusDiffers.id, 1_500, 100, 'reversed', today),
      statementLine('trf_not_ours_0001', 900, 10, 'success', today),
    ].join('\n');
    const first = await importStatement(csv);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toEqual({
      provider: 'fake',
      lines: 6,
      inserted: 6,
      updated: 0,
      already_imported: 0,
      reimported_differently: 0,
      fees_booked: 2,
    });
    // Each fee is the sending module's own journal, once: a second import books nothing.
    expect(await journalCount('payout_fee', noFee.id)).toBe(1);
    expect(await journalCount('sale_refund_fee', refund.saleId)).toBe(1);
    expect((await importStatement(csv)).body).toMatchObject({
      inserted: 0,
      already_imported: 6,
      fees_booked: 0,
    });
    expect(await journalCount('payout_fee', noFee.id)).toBe(1);
    expect(await balanceOf(p, 'transfer_fees')).toBe(fees - 150);
    expect((await p.admin('GET', `/payouts/${noFee.id}`)).body).toMatchObject({ fee_pesewas: 100 });

    const day = await run();
    expect(day).toMatchObject({
      source: 'transfers',
      date: today,
      status: 'differences',
      matched: 4,
      residue_pesewas: 0,
    });
    expect(kinds(day)).toEqual([
      ['missing_in_ledger', 'trf_not_ours_0001'],
      ['missing_in_statement', unlisted.id],
      ['status_differs', statusDiffers.id],
    ]);
    expect(day.difference_list.find((d: any) => d.kind === 'status_differs').note).toBe(
      'the statement says reversed; the payout is paid',
    );
    await expectLedgerBalanced(p);
  });

  it('lists an amount or a fee that differs, and a line imported again differently, with both versions', async () => {
    const a = await paidPayout(p, 6_000, now);
    const b = await paidPayout(p, 7_000, now);
    await run();
    const csv = [
      STATEMENT_HEADER,
      statementLine(a.id, 6_100, 100, 'success', today),
      statementLine(b.id, 7_000, 120, 'success', today),
    ].join('\n');
    expect((await importStatement(csv)).body).toMatchObject({ inserted: 2, fees_booked: 0 });
    const changed = [STATEMENT_HEADER, statementLine(a.id, 6_000, 100, 'success', today)].join(
      '\n',
    );
    expect((await importStatement(changed)).body).toMatchObject({
      inserted: 0,
      already_imported: 0,
      reimported_differently: 1,
    });
    expect((await importStatement(changed)).body).toMatchObject({
      already_imported: 1,
      reimported_differently: 0,
    });
    // The day already reconciled is run again by the import: no stored result hides the second version.
    const day = (await p.admin('GET', `/reconciliation/days/transfers/${today}`)).body;
    expect(kinds(day).filter((k: string[]) => k[1] === a.id || k[1] === b.id)).toEqual([
      ['amount_differs', a.id],
      ['fee_differs', b.id],
      ['reimported_differently', a.id],
    ]);
    expect(day.reimported).toEqual([
      {
        kind: 'transfer',
        reference: a.id,
        held: {
          amount_pesewas: 6_100,
          fee_pesewas: 100,
          status: 'success',
          imported_at: expect.any(String),
        },
        reimported: {
          amount_pesewas: 6_000,
          fee_pesewas: 100,
          status: 'success',
          imported_at: expect.any(String),
          imported_by: 'admin_token',
        },
      },
    ]);
  });

  it('brings a transfer up to date when it moved on (pending, then paid; paid, then reversed), without a second version', async () => {
    const a = await paidPayout(p, 2_500, now);
    expect(
      (
        await importStatement(
          [STATEMENT_HEADER, statementLine(a.id, 2_500, 0, 'pending', today)].join('\n'),
        )
      ).body,
    ).toMatchObject({ inserted: 1 });
    expect(
      (
        await importStatement(
          [STATEMENT_HEADER, statementLine(a.id, 2_500, 100, 'success', today)].join('\n'),
        )
      ).body,
    ).toMatchObject({ updated: 1, reimported_differently: 0 });
    expect(
      (
        await importStatement(
          [STATEMENT_HEADER, statementLine(a.id, 2_500, 100, 'reversed', today)].join('\n'),
        )
      ).body,
    ).toMatchObject({ updated: 1, reimported_differently: 0 });
    expect(
      (
        await importStatement(
          [STATEMENT_HEADER, statementLine(a.id, 2_500, 100, 'success', today)].join('\n'),
        )
      ).body,
    ).toMatchObject({ updated: 0, reimported_differently: 1 });
  });

  it('refuses a hostile statement whole, naming each line, and changes nothing', async () => {
    const noFee = await withoutFee(() => paidPayout(p, 1_200, now));
    const lines = await countRows(p, 'select count(*)::int as n from transfer_statement_lines');
    const journals = await countRows(p, 'select count(*)::int as n from ledger_journals');
    const bad = await importStatement(
      [
        STATEMENT_HEADER,
        statementLine(noFee.id, 1_200, 100, 'success', today),
        'r2,,1,0,GHS,success,2026-02-30',
        `r3,,99999999999,0,GHS,success,${today}`,
        `r4,,1,0,GHS,paid,${today}`,
      ].join('\n'),
    );
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(bad.body.details.map((d: { issue: string }) => d.issue)).toEqual([
      'line 3: the date must be YYYY-MM-DD or an ISO date and time between 2000 and 2100',
      'line 4: the amount must be in GHS with at most two decimals, like 120.50',
      'line 5: the status must be one of success, reversed, failed, abandoned, pending, otp, queued, received',
    ]);
    for (const csv of [
      `${STATEMENT_HEADER}\nr1,,1,0,GHS,success,2026-05-12\u0000`,
      `${STATEMENT_HEADER}\nr1,,1,0,GHS,success,2026-05-12\u001b[2J`,
      'a,b\n1,2',
    ]) {
      const refused = await importStatement(csv);
      expect([refused.status, refused.body.code], csv).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect((await importStatement('')).status).toBe(400);
    expect(
      (
        await p.admin('POST', '/reconciliation/transfer-statements', {
          csv: 'x'.repeat(300 * 1024),
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await p.admin('POST', '/reconciliation/transfer-statements', {
          csv: STATEMENT_HEADER,
          provider: 'paystack',
        })
      ).status,
    ).toBe(400);
    expect((await p.admin('POST', '/reconciliation/transfer-statements', {})).status).toBe(400);
    expect(await countRows(p, 'select count(*)::int as n from transfer_statement_lines')).toBe(
      lines,
    );
    expect(await countRows(p, 'select count(*)::int as n from ledger_journals')).toBe(journals);
    expect((await p.admin('GET', `/payouts/${noFee.id}`)).body.fee_pesewas).toBeNull();
    expect(
      (await p.admin('POST', '/reconciliation/days', { source: 'transfers', date: '2026-13-01' }))
        .status,
    ).toBe(400);
  });
});
