import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide, getSale, orderBody, placed, salesPartner, shop } from '../../catalog/helpers.ts';
import { startPlatform, type PartnerSetup, type TestPlatform } from '../../helpers/harness.ts';
import { balanceOf, expectBalanced, HOUR, setDestination, runPayouts } from '../helpers.ts';

// A prepaid sale's shares reach the payables at delivery, so the payout hold (24 h) counts from
// delivery: a run pays only shares of delivered sales past the hold, never a paid, undelivered sale.

let offset = 0;
let p: TestPlatform;
let sp: PartnerSetup;
beforeAll(async () => {
  // Real time until the sales are placed (the partner API signs in real time), then travel.
  p = await startPlatform({ clock: () => Date.now() + offset, env: { PAYOUT_INTERVAL_MS: '0' } });
  sp = await salesPartner(p);
});
afterAll(() => p.close());

const db = () => p.app.platform.db;
const run = async () => {
  const r = await runPayouts(p);
  expect(r.status).toBe(202);
  return r.body.run_id as string;
};
const payoutOf = async (runId: string, vendorId: string) =>
  (
    (await p.admin('GET', `/payouts?run_id=${runId}&payee=vendor:${vendorId}`)).body.data as Array<
      Record<string, any>
    >
  )[0];

async function paidSale(
  s: Awaited<ReturnType<typeof shop>>,
): Promise<{ saleId: string; orderId: string; total: number }> {
  const sale = await placed(sp, orderBody(s, { payment_method: 'online' }));
  expect(await decide(sale.checkout_url, 'pay')).toBe(200);
  return {
    saleId: sale.sale_id,
    orderId: (await getSale(sp, { sale_id: sale.sale_id })).body.data.delivery.order_id,
    total: Math.round(sale.total_ghs * 100),
  };
}

describe('the payout hold of a prepaid sale', () => {
  it('counts from delivery: paid long ago and delivered now is pending; never delivered is never paid; delivered past the hold is paid', async () => {
    const v = await shop(p);
    await setDestination(p, 'vendor', v.vendorId, {
      kind: 'mobile_money',
      network: 'mtn',
      number: '024 555 0177',
      name: 'Kofi Boateng',
    });
    await db().query(
      "update payout_destinations set changed_at = changed_at - interval '30 days' where payee = $1",
      [`vendor:${v.vendorId}`],
    );
    const delivered = await paidSale(v);
    const undelivered = await paidSale(v);
    const payable = `vendor_payable:${v.vendorId}`;
    expect(await balanceOf(p, payable)).toBe(0);

    // Two days after the payments, the first delivery is delivered.
    offset = 48 * HOUR;
    for (const status of ['accepted', 'pickedUp', 'in_transit', 'delivered'])
      expect(
        (await p.admin('POST', `/delivery/orders/${delivered.orderId}/status`, { status })).status,
      ).toBe(200);
    const share = await balanceOf(p, payable);
    expect(share).toBeGreaterThan(0);
    expect((await p.admin('GET', `/payees/vendor/${v.vendorId}`)).body).toMatchObject({
      available_pesewas: 0,
      pending_pesewas: share,
    });
    expect(await payoutOf(await run(), v.vendorId)).toBeUndefined();

    // Past the hold from its delivery: paid, and only the delivered sale's share.
    offset = (48 + 25) * HOUR;
    expect((await p.admin('GET', `/payees/vendor/${v.vendorId}`)).body).toMatchObject({
      available_pesewas: share,
      pending_pesewas: 0,
    });
    const payout = await payoutOf(await run(), v.vendorId);
    expect(payout).toMatchObject({ amount_pesewas: share, status: 'paid' });
    const lines = (await p.admin('GET', `/payouts/${payout!.id}`)).body.lines.map(
      (l: Record<string, unknown>) => [l.kind, l.subject_id],
    );
    expect(lines).toEqual([['sale_settlement', delivered.saleId]]);

    // Never delivered: its money is still held for it, and no later run pays it.
    offset = 30 * 24 * HOUR;
    expect(await payoutOf(await run(), v.vendorId)).toBeUndefined();
    const held = await db().query<{ n: string }>(
      "select coalesce(sum(e.amount_pesewas), 0)::bigint as n from ledger_entries e join ledger_journals j on j.id = e.journal_id where e.account = 'sales_undelivered' and j.subject_id = $1",
      [undelivered.saleId],
    );
    expect(Number(held[0]!.n)).toBe(undelivered.total);
    expect(await balanceOf(p, payable)).toBe(0);
    await expectBalanced(p);
  });
});
