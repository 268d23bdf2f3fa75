import { describe, expect, it } from 'vitest';
import type { PartnerSetup, TestPlatform } from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { clientReferenceOf } from '../../helpers/orders-read.ts';
import {
  createOrder,
  decide,
  expectLedgerBalanced,
  journals,
  orderBody,
  placed,
  shop,
  stockOf,
  useSalesPlatform,
  verifySale,
} from '../helpers.ts';

let p: TestPlatform;
let s: PartnerSetup;
useSalesPlatform((started) => ({ p, s } = started));

describe('concurrency', () => {
  it('12 concurrent orders for the last 4 units: exactly 4 are created, the rest OUT_OF_STOCK, stock never negative', async () => {
    const b = await shop(p, {
      product: { variants: [{ label: 'Last ones', price_ghs: 25, stock: 4 }] },
    });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createOrder(s, orderBody(b, { payment_method: i % 2 ? 'online' : 'cod' })),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((x) => x === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status !== 201).map((r) => r.body.code)).toEqual(
      Array(8).fill('OUT_OF_STOCK'),
    );
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 4, reserved: 4 });
    const negative = await p.app.platform.db.query(
      'select id from product_variants where stock < 0 or reserved < 0 or reserved > stock',
    );
    expect(negative).toEqual([]);
    // Released stock is sellable again: one failure frees one unit for one more order.
    const cod = results.find((r) => r.status === 201 && r.body.data.state === 'awaiting_delivery')!;
    const orderId = (
      await s.client.send<any>('GET', '/api/v1/safe-catalog/orders.get', {
        query: { sale_id: cod.body.data.sale_id },
      })
    ).body.data.delivery.order_id;
    await s.client.send('POST', '/api/v1/delivery/orders.cancel', { body: { order_id: orderId } });
    const again = await Promise.all(Array.from({ length: 3 }, () => createOrder(s, orderBody(b))));
    expect(again.map((r) => r.status).sort()).toEqual([201, 400, 400]);
  });

  it('20 concurrent verifies racing the gateway callback: one settlement, one delivery order, ledger balanced', async () => {
    const b = await shop(p);
    const sale = await placed(
      s,
      orderBody(b, { payment_method: 'online', reseller_markup_ghs: 10 }),
    );
    // Paid at the gateway, callback not yet sent: flip the sandbox checkout directly, then race.
    await p.app.platform.db.query(
      "update sandbox_checkouts set status = 'Paid' where client_reference = (select client_reference from sales where id = $1)",
      [sale.sale_id],
    );
    const clientReference = await clientReferenceOf(p, sale.sale_id);
    const callback = () =>
      p.fetch(`${p.url}/webhooks/payments/sandbox`, {
        method: 'POST',
        body: JSON.stringify({ client_reference: clientReference, status: 'Paid' }),
      });
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => verifySale(s, sale.sale_id)),
      callback(),
      ...Array.from({ length: 10 }, () => verifySale(s, sale.sale_id)),
    ]);
    const answers = results.filter(
      (r): r is Awaited<ReturnType<typeof verifySale>> => !(r instanceof Response),
    );
    expect(answers).toHaveLength(20);
    expect(results.find((r): r is Response => r instanceof Response)!.status).toBe(200);
    for (const r of answers)
      expect(r.body.data).toMatchObject({
        state: 'confirmed',
        settled: true,
        payment_status: 'paid',
      });
    // Paid once: the money is held for the sale until its delivery.
    expect((await journals(p, sale.sale_id)).map((j) => j.kind)).toEqual(['sale_payment']);
    const confirmed = await eventsAbout(p, sale.sale_id, 'safe.order.confirmed');
    expect(confirmed).toHaveLength(1);
    const deliveries = await p.app.platform.db.query(
      'select d.id from delivery_orders d join sales s on d.order_reference = s.delivery_reference where s.id = $1',
      [sale.sale_id],
    );
    expect(deliveries).toHaveLength(1);
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 9, reserved: 0 });
    await expectLedgerBalanced(p);
  });

  it('20 concurrent verifies of a paid sale delivered behind the listener earn its shares once', async () => {
    const b = await shop(p);
    const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
    await decide(sale.checkout_url, 'pay');
    await verifySale(s, sale.sale_id);
    await p.app.platform.db.query(
      "update delivery_orders set status = 'delivered' where id = (select delivery_order_id from sales where id = $1)",
      [sale.sale_id],
    );
    const results = await Promise.all(
      Array.from({ length: 20 }, () => verifySale(s, sale.sale_id)),
    );
    for (const r of results)
      expect(r.body.data).toMatchObject({
        state: 'confirmed',
        settled: true,
        payment_status: 'paid',
        delivery_status: 'delivered',
      });
    expect((await journals(p, sale.sale_id)).map((j) => j.kind)).toEqual([
      'sale_payment',
      'sale_settlement',
    ]);
    await expectLedgerBalanced(p);
  });

  it('20 concurrent verifies of a delivered cod sale settle it once', async () => {
    const b = await shop(p);
    const sale = await placed(s, orderBody(b));
    // Delivered behind the listener's back, so the verifies themselves race to settle it.
    await p.app.platform.db.query(
      "update delivery_orders set status = 'delivered' where id = (select delivery_order_id from sales where id = $1)",
      [sale.sale_id],
    );
    const results = await Promise.all(
      Array.from({ length: 20 }, () => verifySale(s, sale.sale_id)),
    );
    for (const r of results)
      expect(r.body.data).toMatchObject({
        state: 'confirmed',
        settled: true,
        payment_status: 'collected',
      });
    expect((await journals(p, sale.sale_id)).map((j) => j.kind)).toEqual(['sale_settlement']);
    await expectLedgerBalanced(p);
  });
});
