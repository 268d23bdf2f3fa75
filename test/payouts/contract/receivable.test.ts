import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide, getSale, orderBody, placed, salesPartner, shop } from '../../catalog/helpers.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { startPlatform, type PartnerSetup, type TestPlatform } from '../../helpers/harness.ts';
import { legsAbout } from '../../helpers/ledger-read.ts';
import { balanceOf, expectBalanced, owedBack, setDestination, runPayouts } from '../helpers.ts';

// A payee's receivable holds what it owes back: since migration 044, a share a payout covered before
// its prepaid sale was delivered (new sales credit no payee before delivery). The next payout deducts it.

let p: TestPlatform;
let sp: PartnerSetup;
const fake = new FakeTransfers();
beforeAll(async () => {
  // No hold: a delivered sale is available at once, so the test needs no clock travel (the partner API signs in real time).
  p = await startPlatform({
    transfers: fake,
    env: { PAYOUT_INTERVAL_MS: '0', PAYOUT_HOLD_HOURS: '0' },
  });
  sp = await salesPartner(p);
});
afterAll(() => p.close());

async function payee() {
  const s = await shop(p);
  await setDestination(p, 'vendor', s.vendorId, {
    kind: 'mobile_money',
    network: 'mtn',
    number: '024 555 0199',
    name: 'Kofi Boateng',
  });
  await p.app.platform.db.query(
    "update payout_destinations set changed_at = changed_at - interval '30 days' where payee = $1",
    [`vendor:${s.vendorId}`],
  );
  return {
    ...s,
    payable: `vendor_payable:${s.vendorId}`,
    receivable: `vendor_receivable:${s.vendorId}`,
  };
}

/** A prepaid sale, paid and delivered: its shares earned. */
async function deliveredSale(s: Awaited<ReturnType<typeof shop>>, quantity = 1): Promise<string> {
  const sale = await placed(
    sp,
    orderBody(s, {
      payment_method: 'online',
      reseller_markup_ghs: 5,
      items: [{ product_id: s.productId, variant_id: s.variantId, quantity }],
    }),
  );
  expect(await decide(sale.checkout_url, 'pay')).toBe(200);
  const orderId = (await getSale(sp, { sale_id: sale.sale_id })).body.data.delivery.order_id;
  for (const status of ['accepted', 'pickedUp', 'in_transit', 'delivered'])
    expect((await p.admin('POST', `/delivery/orders/${orderId}/status`, { status })).status).toBe(
      200,
    );
  return sale.sale_id;
}

const runFor = async (vendorId: string) => {
  const r = await runPayouts(p);
  expect(r.status).toBe(202);
  return (
    (await p.admin('GET', `/payouts?run_id=${r.body.run_id}&payee=vendor:${vendorId}`)).body
      .data as Array<Record<string, any>>
  )[0];
};

describe('a share owed back on the receivable', () => {
  it('is deducted by the next payout, never below zero, and cleared in its journal', async () => {
    const v = await payee();
    await deliveredSale(v);
    const share = await balanceOf(p, v.payable);
    expect(await runFor(v.vendorId)).toMatchObject({ amount_pesewas: share, status: 'paid' });
    expect(await balanceOf(p, v.payable)).toBe(0);

    const early = await owedBack(p, v.receivable, share);
    expect((await p.admin('GET', `/payees/vendor/${v.vendorId}`)).body).toMatchObject({
      available_pesewas: -share,
      receivable_pesewas: share,
    });
    // Owed back more than is owed: no payout.
    expect(await runFor(v.vendorId)).toBeUndefined();

    const second = await deliveredSale(v, 3);
    const earned = await balanceOf(p, v.payable);
    const next = await runFor(v.vendorId);
    expect(next).toMatchObject({ amount_pesewas: earned - share, status: 'paid' });
    const lines = (await p.admin('GET', `/payouts/${next!.id}`)).body.lines.map(
      (l: Record<string, unknown>) => [l.kind, l.subject_id, l.amount_pesewas, l.account],
    );
    expect(lines.sort()).toEqual([
      ['sale_settlement', second, earned, v.payable],
      ['sale_settlement_deferred', early, -share, v.receivable],
    ]);
    const created = await legsAbout(p, ['payout_created'], next!.id);
    expect(created.map((e) => [e.account, Number(e.amount_pesewas)])).toEqual([
      ['payouts_in_transit', earned - share],
      [v.payable, -earned],
      [v.receivable, share],
    ]);
    expect([
      await balanceOf(p, v.payable),
      await balanceOf(p, v.receivable),
      await balanceOf(p, 'payouts_in_transit'),
    ]).toEqual([0, 0, 0]);
    await expectBalanced(p);
  });

  it('is owed again when the payout that deducted it fails', async () => {
    const v = await payee();
    const share = 1500;
    await owedBack(p, v.receivable, share);
    await deliveredSale(v, 3);
    const earned = await balanceOf(p, v.payable);
    fake.knobs.push('fail');
    expect(await runFor(v.vendorId)).toMatchObject({
      amount_pesewas: earned - share,
      status: 'failed',
    });
    expect([await balanceOf(p, v.payable), await balanceOf(p, v.receivable)]).toEqual([
      earned,
      -share,
    ]);
    expect(await runFor(v.vendorId)).toMatchObject({
      amount_pesewas: earned - share,
      status: 'paid',
    });
    expect([await balanceOf(p, v.payable), await balanceOf(p, v.receivable)]).toEqual([0, 0]);
    await expectBalanced(p);
  });
});
