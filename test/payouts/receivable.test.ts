import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide, getSale, journals, orderBody, placed, salesPartner, shop } from '../catalog/helpers.ts';
import { FakeTransfers } from '../fakes/transfers.ts';
import { startPlatform, type PartnerSetup, type TestPlatform } from '../helpers/harness.ts';
import { balanceOf, expectBalanced, setDestination } from './helpers.ts';

let p: TestPlatform;
let sp: PartnerSetup;
const fake = new FakeTransfers();
beforeAll(async () => {
  // No hold: a settled sale is available at once, so the test needs no clock travel (the partner API signs in real time).
  p = await startPlatform({ transfers: fake, env: { PAYOUT_INTERVAL_MS: '0', PAYOUT_HOLD_HOURS: '0' } });
  sp = await salesPartner(p);
});
afterAll(() => p.close());

async function payee() {
  const s = await shop(p);
  await setDestination(p, 'vendor', s.vendorId, { kind: 'mobile_money', network: 'mtn', number: '024 555 0199', name: 'Kofi Boateng' });
  await p.app.platform.db.query("update payout_destinations set changed_at = changed_at - interval '30 days' where payee = $1", [`vendor:${s.vendorId}`]);
  return { ...s, payable: `vendor_payable:${s.vendorId}`, receivable: `vendor_receivable:${s.vendorId}` };
}

/** A prepaid sale, paid (so settled to the payables at once), with a partner markup. */
async function paidSale(s: Awaited<ReturnType<typeof shop>>, quantity = 1): Promise<{ saleId: string; orderId: string }> {
  const sale = await placed(sp, orderBody(s, { payment_method: 'online', reseller_markup_ghs: 5, items: [{ product_id: s.productId, variant_id: s.variantId, quantity }] }));
  expect(await decide(sale.checkout_url, 'pay')).toBe(200);
  return { saleId: sale.sale_id, orderId: (await getSale(sp, { sale_id: sale.sale_id })).body.data.delivery.order_id as string };
}

const cancel = async (orderId: string) => expect((await sp.client.send<any>('POST', '/api/v1/delivery/orders.cancel', { body: { order_id: orderId } })).status).toBe(200);
const runFor = async (vendorId: string) => {
  const r = await p.admin('POST', '/payouts/runs');
  expect(r.status).toBe(201);
  return ((await p.admin('GET', `/payouts?run_id=${r.body.run_id}&payee=vendor:${vendorId}`)).body.data as Array<Record<string, any>>)[0];
};

describe('a return after the payout', () => {
  it('is owed back on the receivable (the payable never goes negative) and the next payout deducts and clears it in one journal', async () => {
    const v = await payee();
    const first = await paidSale(v);
    const share = await balanceOf(p, v.payable);
    const markupAccount = `partner_markup_payable:${sp.partnerId}`;
    const markupBefore = await balanceOf(p, markupAccount);
    expect(await runFor(v.vendorId)).toMatchObject({ amount_pesewas: share, status: 'paid' });
    expect(await balanceOf(p, v.payable)).toBe(0);

    // Cancelled after its payout: the vendor's share goes to its receivable; the partner's markup,
    // never paid out (no destination), is still covered by its payable and comes off it.
    await cancel(first.orderId);
    const refund = (await journals(p, first.saleId)).find((j) => j.kind === 'sale_refund')!;
    expect(refund.entries[v.receivable]).toBe(-share);
    expect(refund.entries[v.payable]).toBeUndefined();
    expect(await balanceOf(p, v.payable)).toBe(0);
    expect(await balanceOf(p, markupAccount)).toBe(markupBefore - 500);
    expect((await p.admin('GET', `/payees/vendor/${v.vendorId}`)).body).toMatchObject({ available_pesewas: -share, receivable_pesewas: share });
    // Owed back more than is owed: no payout.
    expect(await runFor(v.vendorId)).toBeUndefined();

    const second = await paidSale(v, 3);
    const earned = (await balanceOf(p, v.payable));
    const next = await runFor(v.vendorId);
    expect(next).toMatchObject({ amount_pesewas: earned - share, status: 'paid' });
    const lines = (await p.admin('GET', `/payouts/${next!.id}`)).body.lines.map((l: Record<string, unknown>) => [l.kind, l.subject_id, l.amount_pesewas, l.account]);
    expect(lines.sort()).toEqual([['sale_refund', first.saleId, -share, v.receivable], ['sale_settlement', second.saleId, earned, v.payable]]);
    const created = await p.app.platform.db.query<{ account: string; amount_pesewas: number }>(
      "select e.account, e.amount_pesewas from ledger_journals j join ledger_entries e on e.journal_id = j.id where j.kind = 'payout_created' and j.subject_id = $1 order by e.account",
      [next!.id],
    );
    expect(created.map((e) => [e.account, Number(e.amount_pesewas)])).toEqual([['payouts_in_transit', earned - share], [v.payable, -earned], [v.receivable, share]]);
    expect([await balanceOf(p, v.payable), await balanceOf(p, v.receivable), await balanceOf(p, 'payouts_in_transit')]).toEqual([0, 0, 0]);
    await expectBalanced(p);
  });

  it('owes the deduction again when the payout that made it fails', async () => {
    const v = await payee();
    const first = await paidSale(v);
    const share = await balanceOf(p, v.payable);
    await runFor(v.vendorId);
    await cancel(first.orderId);
    await paidSale(v, 3);
    const earned = await balanceOf(p, v.payable);
    fake.knobs.push('fail');
    expect(await runFor(v.vendorId)).toMatchObject({ amount_pesewas: earned - share, status: 'failed' });
    expect([await balanceOf(p, v.payable), await balanceOf(p, v.receivable)]).toEqual([earned, -share]);
    expect(await runFor(v.vendorId)).toMatchObject({ amount_pesewas: earned - share, status: 'paid' });
    expect([await balanceOf(p, v.payable), await balanceOf(p, v.receivable)]).toEqual([0, 0]);
    await expectBalanced(p);
  });
});
