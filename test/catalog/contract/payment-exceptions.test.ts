import { describe, expect, it } from 'vitest';
import { eventsAbout } from '../../helpers/events.ts';
import type { PartnerSetup, TestPlatform } from '../../helpers/harness.ts';
import { clientReferenceOf } from '../../helpers/orders-read.ts';
import {
  decide,
  expectLedgerBalanced,
  getSale,
  journals,
  orderBody,
  placed,
  shop,
  stockOf,
  useSalesPlatform,
  verifySale,
} from '../helpers.ts';

/**
 * Payments that neither simply confirm nor fail a sale: a different amount than the total, and a
 * payment for a sale that already failed. Both are booked on the ledger and visible to the partner
 * and the operator, never only logged.
 */
let p: TestPlatform;
let s: PartnerSetup;
useSalesPlatform((started) => ({ p, s } = started));

const db = () => p.app.platform.db;
async function events(saleId: string): Promise<string[]> {
  const rows = await eventsAbout(p, saleId);
  rows.sort((a, b) => a.sequence - b.sequence || a.type.localeCompare(b.type));
  return rows.map((r) => r.type);
}
/** What the gateway collected for a sale's checkout, set as a real gateway would report it. */
const gatewayCollects = (saleId: string, set: string, value: number | string) =>
  db().query(
    `update sandbox_checkouts set ${set} = $2 where client_reference = (select client_reference from sales where id = $1)`,
    [saleId, value],
  );

describe('the gateway reports another amount than the sale total', () => {
  for (const [name, delta] of [
    ['less', -1],
    ['more', 5000],
  ] as const) {
    it(`${name}: the sale is held, not confirmed, with the money in suspense; visible to the partner and the operator`, async () => {
      const b = await shop(p);
      const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
      const total = Math.round(sale.total_ghs * 100);
      await gatewayCollects(sale.sale_id, 'amount_pesewas', total + delta);
      expect(await decide(sale.checkout_url, 'pay')).toBe(200);
      const verified = (await verifySale(s, sale.sale_id)).body.data;
      expect(verified).toEqual({
        sale_id: sale.sale_id,
        state: 'on_hold',
        settled: false,
        payment_status: 'amount_mismatch',
        delivery_status: null,
      });
      const got = (await getSale(s, { sale_id: sale.sale_id })).body.data;
      expect(got).toMatchObject({
        state: 'on_hold',
        payment_status: 'amount_mismatch',
        gateway_amount_ghs: (total + delta) / 100,
        refund_due_ghs: null,
        delivery: null,
      });
      // No settlement, no delivery, stock still held; the money sits in suspense.
      expect(await journals(p, sale.sale_id)).toEqual([
        {
          kind: 'sale_payment_held',
          entries: {
            'gateway_clearing:sandbox': -(total + delta),
            sale_payments_held: total + delta,
          },
        },
      ]);
      expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 1 });
      expect(await events(sale.sale_id)).toEqual(['safe.order.on_hold']);
      // Repeated verifies, callbacks and the job change nothing more.
      await Promise.all([
        verifySale(s, sale.sale_id),
        verifySale(s, sale.sale_id),
        p.app.platform.catalog!.jobs.tick(),
      ]);
      expect(await journals(p, sale.sale_id)).toHaveLength(1);
      expect(await events(sale.sale_id)).toEqual(['safe.order.on_hold']);
      const listed = await p.admin('GET', '/sales?state=on_hold');
      expect(listed.status).toBe(200);
      expect(listed.body.sales).toContainEqual(
        expect.objectContaining({
          sale_id: sale.sale_id,
          partner_id: s.partnerId,
          state: 'on_hold',
          payment_status: 'amount_mismatch',
          total_ghs: sale.total_ghs,
          gateway_amount_ghs: (total + delta) / 100,
        }),
      );
      await expectLedgerBalanced(p);
    });
  }
});

describe('the gateway reports a payment for a sale that already failed', () => {
  it('books the money as owed back to the buyer, once, with an event and an operator view', async () => {
    const b = await shop(p);
    const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
    expect(await decide(sale.checkout_url, 'decline')).toBe(200);
    expect((await verifySale(s, sale.sale_id)).body.data).toMatchObject({
      state: 'failed',
      payment_status: 'declined',
    });
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 0 });
    // The buyer pays after all (a retried charge the gateway accepted late).
    await gatewayCollects(sale.sale_id, 'status', 'Paid');
    const callback = await p.fetch(`${p.url}/webhooks/payments/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_reference: await clientReferenceOf(p, sale.sale_id),
        status: 'Paid',
      }),
    });
    expect(callback.status).toBeLessThan(300);
    await Promise.all([verifySale(s, sale.sale_id), verifySale(s, sale.sale_id)]);
    const total = Math.round(sale.total_ghs * 100);
    const got = (await getSale(s, { sale_id: sale.sale_id })).body.data;
    expect(got).toMatchObject({
      state: 'failed',
      payment_status: 'refund_due',
      gateway_amount_ghs: sale.total_ghs,
      refund_due_ghs: sale.total_ghs,
    });
    expect(await journals(p, sale.sale_id)).toEqual([
      {
        kind: 'sale_late_payment',
        entries: { 'gateway_clearing:sandbox': -total, sale_refunds_payable: total },
      },
    ]);
    expect(await events(sale.sale_id)).toEqual(['safe.order.failed', 'safe.order.refund_due']);
    // Stock is not taken again: the goods were never sold.
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 0 });
    const listed = await p.admin('GET', '/sales?payment_status=refund_due');
    expect(listed.body.sales).toContainEqual(
      expect.objectContaining({ sale_id: sale.sale_id, refund_due_ghs: sale.total_ghs }),
    );
    await expectLedgerBalanced(p);
  });

  it('a sale the expiry job failed, then paid at the gateway, is owed back on the next verify', async () => {
    const b = await shop(p);
    const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
    await db().query(
      "update sales set expires_at = expires_at - interval '31 minutes' where id = $1",
      [sale.sale_id],
    );
    await gatewayCollects(
      sale.sale_id,
      'created_at',
      new Date(Date.now() - 31 * 60_000).toISOString(),
    );
    await p.app.platform.catalog!.jobs.tick();
    expect((await getSale(s, { sale_id: sale.sale_id })).body.data).toMatchObject({
      state: 'failed',
      payment_status: 'expired',
    });
    await gatewayCollects(sale.sale_id, 'status', 'Paid');
    expect((await verifySale(s, sale.sale_id)).body.data).toMatchObject({
      state: 'failed',
      payment_status: 'refund_due',
      settled: false,
    });
    expect((await journals(p, sale.sale_id)).map((j) => j.kind)).toEqual(['sale_late_payment']);
  });
});

describe('the operator view of sales', () => {
  it('filters by state and payment status and refuses unknown values', async () => {
    expect((await p.admin('GET', '/sales?state=bogus')).status).toBe(400);
    const all = await p.admin('GET', '/sales?limit=5');
    expect(all.status).toBe(200);
    expect(all.body.sales.length).toBeLessThanOrEqual(5);
  });
});
