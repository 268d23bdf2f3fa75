import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addKey,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { storedOrder } from '../../helpers/orders-read.ts';
import {
  decide,
  expectLedgerBalanced,
  getSale,
  journals,
  orderBody,
  placed,
  salesPartner,
  SALE_SCOPES,
  shop,
  stockOf,
  verifySale,
} from '../helpers.ts';

let p: TestPlatform;
let s: PartnerSetup;
let a: Awaited<ReturnType<typeof shop>>;
beforeAll(async () => {
  p = await startPlatform();
  s = await salesPartner(p);
  // 12.5% commission: the settlement shows the split.
  a = await shop(p, { vendor: { commission_rate: 0.125 } });
});
afterAll(() => p.close());

const db = () => p.app.platform.db;
const move = (orderId: string, status: string) =>
  p.admin('POST', `/delivery/orders/${orderId}/status`, {
    status,
    ...(status === 'returning' ? { failure_reason: 'refused' } : {}),
  });
const deliveryOf = async (saleId: string) =>
  (await getSale(s, { sale_id: saleId })).body.data.delivery;
async function events(saleId: string): Promise<string[]> {
  const rows = (await eventsAbout(p, saleId)).sort(
    (a, b) =>
      a.created_at.getTime() - b.created_at.getTime() ||
      a.sequence - b.sequence ||
      a.type.localeCompare(b.type),
  );
  return rows.map((r) => r.type);
}
/**
 * The sale's delivery order as the delivery module's face shows it (the pickup phone from the
 * courier's job sheet), with the two columns no face shows read with SQL.
 */
async function deliveryRow(orderId: string) {
  const { app_id, environment, payer, payment_status, fee_pesewas } = await storedOrder(p, orderId);
  const sheet = await p.app.platform.delivery!.orders.jobSheet(orderId);
  const [unshown] = await db().query<any>(
    'select special_instructions, payment_is_paid from delivery_orders where id = $1',
    [orderId],
  );
  return {
    app_id,
    environment,
    payer,
    payment_status,
    fee_pesewas,
    pickup_contact_phone: sheet?.pickup_contact_phone,
    ...unshown,
  };
}

describe('prepaid (online) sales', () => {
  it('awaiting_payment → paid at the gateway → confirmed, settled once, delivery dispatched', async () => {
    const sale = await placed(
      s,
      orderBody(a, { payment_method: 'online', reseller_markup_ghs: 20 }),
    );
    const pending = await verifySale(s, sale.sale_id);
    expect(pending.body).toEqual({
      status: 'success',
      data: {
        sale_id: sale.sale_id,
        state: 'awaiting_payment',
        settled: false,
        payment_status: 'pending',
        delivery_status: null,
      },
    });
    expect(await deliveryOf(sale.sale_id)).toBeNull();
    expect(await decide(sale.checkout_url, 'pay')).toBe(200);
    const confirmed = await verifySale(s, sale.sale_id);
    expect(confirmed.body.data).toEqual({
      sale_id: sale.sale_id,
      state: 'confirmed',
      settled: true,
      payment_status: 'paid',
      delivery_status: 'placed',
    });
    const delivery = await deliveryOf(sale.sale_id);
    expect(delivery).toMatchObject({
      order_id: expect.stringMatching(/^dlv_/),
      status: 'placed',
      tracking_url: expect.stringContaining('/track/'),
    });
    // The delivery belongs to the same app and environment, is visible to the partner, and never touches the wallet.
    const dlv = await s.client.send<any>('POST', '/api/v1/delivery/orders.get', {
      body: { order_id: delivery.order_id },
    });
    expect(dlv.body.data).toMatchObject({
      internal_order_id: delivery.order_id,
      order_info: { payment_status: 'pending', amount: sale.delivery_fee_ghs },
    });
    expect(await deliveryRow(delivery.order_id)).toMatchObject({
      app_id: s.appId,
      environment: 'production',
      payer: 'recipient',
      payment_is_paid: true,
      special_instructions: expect.stringContaining('collect nothing'),
    });
    // Paid, not yet delivered: the buyer's money is held for the sale; no payee is credited yet.
    const fee = Math.round(sale.delivery_fee_ghs * 100);
    const total = 18000 + fee + 2000;
    expect(await journals(p, sale.sale_id)).toEqual([
      {
        kind: 'sale_payment',
        entries: { 'gateway_clearing:sandbox': -total, sales_undelivered: total },
      },
    ]);
    expect(await events(sale.sale_id)).toEqual(['safe.order.confirmed', 'safe.order.paid']);
    expect(await stockOf(p, a.variantId)).toMatchObject({ reserved: 0 });
    expect((await verifySale(s, sale.sale_id)).body.data).toMatchObject({
      state: 'confirmed',
      settled: true,
    });
    expect(await journals(p, sale.sale_id)).toHaveLength(1);
    await expectLedgerBalanced(p);
  });

  it('earns its shares when the delivery is delivered: 180 subtotal, commission 22.50, vendor 157.50, fee, markup 20, out of what it held', async () => {
    const sale = await placed(
      s,
      orderBody(a, { payment_method: 'online', reseller_markup_ghs: 20 }),
    );
    await decide(sale.checkout_url, 'pay');
    const { order_id } = await deliveryOf(sale.sale_id);
    for (const status of ['accepted', 'pickedUp', 'in_transit', 'delivered'])
      await move(order_id, status);
    // The partner's view is the one it had at payment, but for the delivery's status.
    expect((await verifySale(s, sale.sale_id)).body.data).toEqual({
      sale_id: sale.sale_id,
      state: 'confirmed',
      settled: true,
      payment_status: 'paid',
      delivery_status: 'delivered',
    });
    const fee = Math.round(sale.delivery_fee_ghs * 100);
    const [paid, settlement] = await journals(p, sale.sale_id);
    expect(paid!.kind).toBe('sale_payment');
    expect(settlement).toEqual({
      kind: 'sale_settlement',
      entries: {
        sales_undelivered: -(18000 + fee + 2000),
        delivery_revenue: fee,
        [`partner_markup_payable:${s.partnerId}`]: 2000,
        platform_commission: 2250,
        [`vendor_payable:${a.vendorId}`]: 15750,
      },
    });
    expect(await events(sale.sale_id)).toEqual(['safe.order.confirmed', 'safe.order.paid']);
    // Operators see when it was earned.
    const listed = (await p.admin('GET', '/sales?state=confirmed&limit=200')).body.sales.find(
      (x: { sale_id: string }) => x.sale_id === sale.sale_id,
    );
    expect(Date.parse(listed.earned_at)).toBeGreaterThan(0);
    await expectLedgerBalanced(p);
  });

  it('earns a paid sale whose delivery was delivered elsewhere (services served apart) through the job, once', async () => {
    const sale = await placed(s, orderBody(a, { payment_method: 'online' }));
    await decide(sale.checkout_url, 'pay');
    const { order_id } = await deliveryOf(sale.sale_id);
    await db().query("update delivery_orders set status = 'delivered' where id = $1", [order_id]);
    expect((await p.app.platform.catalog!.jobs.tick()).followed).toBeGreaterThanOrEqual(1);
    await p.app.platform.catalog!.jobs.tick();
    expect((await journals(p, sale.sale_id)).map((j) => j.kind)).toEqual([
      'sale_payment',
      'sale_settlement',
    ]);
    expect((await getSale(s, { sale_id: sale.sale_id })).body.data).toMatchObject({
      state: 'confirmed',
      payment_status: 'paid',
    });
  });

  it('the sandbox checkout itemises the sale (escaped): lines, delivery fee, the markup when there is one, the total', async () => {
    const b = await shop(p, { product: { title: 'Kente <b>stole</b>' } });
    const page = async (markup: number) => {
      const sale = await placed(
        s,
        orderBody(b, {
          payment_method: 'online',
          reseller_markup_ghs: markup,
          items: [{ product_id: b.productId, variant_id: b.variantId, quantity: 3 }],
        }),
      );
      return { sale, html: await (await fetch(sale.checkout_url)).text() };
    };
    const { sale, html } = await page(12.5);
    expect(html).toContain(
      '<th scope="row">Kente &lt;b&gt;stole&lt;/b&gt; (Gold and green)<span class="each">3 × GHS 180.00</span></th><td>GHS 540.00</td>',
    );
    expect(html).toContain(
      `<th scope="row">Delivery fee</th><td>GHS ${sale.delivery_fee_ghs.toFixed(2)}</td>`,
    );
    expect(html).toContain('<th scope="row">Reseller markup</th><td>GHS 12.50</td>');
    expect(html).toContain(`<th scope="row">Total</th><td>GHS ${sale.total_ghs.toFixed(2)}</td>`);
    expect((await page(0)).html).not.toContain('Reseller markup');
  });

  it('declined at the gateway → failed, restocked, safe.order.failed', async () => {
    const b = await shop(p);
    const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 1 });
    await decide(sale.checkout_url, 'decline');
    expect((await verifySale(s, sale.sale_id)).body.data).toEqual({
      sale_id: sale.sale_id,
      state: 'failed',
      settled: false,
      payment_status: 'declined',
      delivery_status: null,
    });
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 0 });
    expect(await events(sale.sale_id)).toEqual(['safe.order.failed']);
    expect(await journals(p, sale.sale_id)).toEqual([]);
  });

  it('settles from the gateway callback alone, before any verify', async () => {
    const sale = await placed(s, orderBody(a, { payment_method: 'online' }));
    await decide(sale.checkout_url, 'pay'); // the sandbox calls back before answering
    const got = (await getSale(s, { sale_id: sale.sale_id })).body.data;
    expect(got).toMatchObject({
      state: 'confirmed',
      payment_status: 'paid',
      delivery: { status: 'placed' },
    });
  });

  it('expires unpaid after the checkout deadline: failed and restocked by the job or by verify', async () => {
    const b = await shop(p);
    const byJob = await placed(
      s,
      orderBody(b, {
        payment_method: 'online',
        items: [{ product_id: b.productId, variant_id: b.variantId, quantity: 3 }],
      }),
    );
    const byVerify = await placed(s, orderBody(b, { payment_method: 'online' }));
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 4 });
    // 31 minutes later, for the sale and for the sandbox checkout (which stops taking payment too).
    for (const id of [byJob.sale_id, byVerify.sale_id]) {
      await db().query(
        "update sales set expires_at = expires_at - interval '31 minutes' where id = $1",
        [id],
      );
      await db().query(
        "update sandbox_checkouts set created_at = created_at - interval '31 minutes' where client_reference = (select client_reference from sales where id = $1)",
        [id],
      );
    }
    const ran = await p.app.platform.catalog!.jobs.tick();
    expect(ran.expired).toBeGreaterThanOrEqual(1);
    expect((await getSale(s, { sale_id: byJob.sale_id })).body.data).toMatchObject({
      state: 'failed',
      payment_status: 'expired',
    });
    expect((await verifySale(s, byVerify.sale_id)).body.data).toMatchObject({
      state: 'failed',
      payment_status: 'expired',
      settled: false,
    });
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 0 });
    expect(await decide(byVerify.checkout_url, 'pay')).toBe(409);
  });

  it('a paid sale whose delivery is cancelled fails, restocks, and what it held is owed back, no payee ever credited', async () => {
    const b = await shop(p);
    const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
    await decide(sale.checkout_url, 'pay');
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 9, reserved: 0 });
    const { order_id } = await deliveryOf(sale.sale_id);
    expect(
      (await s.client.send<any>('POST', '/api/v1/delivery/orders.cancel', { body: { order_id } }))
        .status,
    ).toBe(200);
    expect((await verifySale(s, sale.sale_id)).body.data).toEqual({
      sale_id: sale.sale_id,
      state: 'failed',
      settled: true,
      payment_status: 'refund_due',
      delivery_status: 'cancelled',
    });
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 0 });
    const total = Math.round(sale.total_ghs * 100);
    expect(await journals(p, sale.sale_id)).toEqual([
      {
        kind: 'sale_payment',
        entries: { 'gateway_clearing:sandbox': -total, sales_undelivered: total },
      },
      {
        kind: 'sale_undelivered_refund',
        entries: { sales_undelivered: -total, sale_refunds_payable: total },
      },
    ]);
    expect(
      await db().query('select account from ledger_entries where account = any($1::text[])', [
        [`vendor_payable:${b.vendorId}`, `vendor_receivable:${b.vendorId}`],
      ]),
    ).toEqual([]);
    await expectLedgerBalanced(p);
  });

  it('a paid sale whose delivery fails or is returned fails the same way; a later delivered move earns nothing', async () => {
    const b = await shop(p);
    for (const end of [
      ['failed'],
      ['accepted', 'pickedUp', 'in_transit', 'returning', 'returned'],
    ]) {
      const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
      await decide(sale.checkout_url, 'pay');
      const { order_id } = await deliveryOf(sale.sale_id);
      for (const status of end) expect((await move(order_id, status)).status).toBe(200);
      expect((await getSale(s, { sale_id: sale.sale_id })).body.data).toMatchObject({
        state: 'failed',
        payment_status: 'refund_due',
      });
      expect((await journals(p, sale.sale_id)).map((j) => j.kind)).toEqual([
        'sale_payment',
        'sale_undelivered_refund',
      ]);
    }
    await expectLedgerBalanced(p);
  });
});

describe('cash-on-delivery sales', () => {
  it('creates the delivery at once: recipient pays the fee, the rider collects the total, verify follows the delivery', async () => {
    const sale = await placed(s, orderBody(a));
    const delivery = await deliveryOf(sale.sale_id);
    const row = await deliveryRow(delivery.order_id);
    expect(row).toMatchObject({
      app_id: s.appId,
      environment: 'production',
      payer: 'recipient',
      payment_status: 'pending',
      fee_pesewas: Math.round(sale.delivery_fee_ghs * 100),
      pickup_contact_phone: '+233245550101',
    });
    expect(row.special_instructions).toContain(`collect GHS ${sale.total_ghs.toFixed(2)}`);
    for (const status of ['accepted', 'pickedUp', 'in_transit']) {
      await move(delivery.order_id, status);
      expect((await verifySale(s, sale.sale_id)).body.data).toEqual({
        sale_id: sale.sale_id,
        state: 'awaiting_delivery',
        settled: false,
        payment_status: 'pending',
        delivery_status: status,
      });
    }
    await move(delivery.order_id, 'delivered');
    expect((await verifySale(s, sale.sale_id)).body.data).toEqual({
      sale_id: sale.sale_id,
      state: 'confirmed',
      settled: true,
      payment_status: 'collected',
      delivery_status: 'delivered',
    });
    const [settlement] = await journals(p, sale.sale_id);
    expect(settlement).toMatchObject({
      kind: 'sale_settlement',
      entries: {
        rider_cash_clearing: -Math.round(sale.total_ghs * 100),
        platform_commission: 2250,
        [`vendor_payable:${a.vendorId}`]: 15750,
      },
    });
    expect(Object.keys(settlement!.entries).some((k) => k.startsWith('partner_markup'))).toBe(
      false,
    );
    expect(await events(sale.sale_id)).toEqual(['safe.order.confirmed']);
  });

  it('cancelling the delivery (partner or operator) fails the sale and restocks, in the same transaction', async () => {
    const b = await shop(p);
    const byPartner = await placed(
      s,
      orderBody(b, { items: [{ product_id: b.productId, variant_id: b.variantId, quantity: 2 }] }),
    );
    const byOperator = await placed(s, orderBody(b));
    const byFailure = await placed(s, orderBody(b));
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 4 });
    await s.client.send('POST', '/api/v1/delivery/orders.cancel', {
      body: {
        order_id: (await deliveryOf(byPartner.sale_id)).order_id,
        reason: 'Buyer unreachable',
      },
    });
    // No verify needed: the listener moved the sale with the delivery.
    expect((await getSale(s, { sale_id: byPartner.sale_id })).body.data).toMatchObject({
      state: 'failed',
      payment_status: 'not_collected',
      delivery: { status: 'cancelled' },
    });
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 2 });
    await move((await deliveryOf(byOperator.sale_id)).order_id, 'cancelled');
    const failedDelivery = (await deliveryOf(byFailure.sale_id)).order_id;
    await move(failedDelivery, 'failed');
    await move(failedDelivery, 'cancelled'); // a second terminal move is a no-op for the sale
    for (const id of [byOperator.sale_id, byFailure.sale_id]) {
      expect((await verifySale(s, id)).body.data).toMatchObject({
        state: 'failed',
        settled: false,
        payment_status: 'not_collected',
      });
      expect(await events(id)).toEqual(['safe.order.failed']);
    }
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 0 });
  });

  it('follows a delivery that ended without the listener (services served apart) through the job', async () => {
    const sale = await placed(s, orderBody(a));
    const { order_id } = await deliveryOf(sale.sale_id);
    await db().query("update delivery_orders set status = 'delivered' where id = $1", [order_id]);
    expect((await p.app.platform.catalog!.jobs.tick()).followed).toBeGreaterThanOrEqual(1);
    expect((await getSale(s, { sale_id: sale.sale_id })).body.data).toMatchObject({
      state: 'confirmed',
      payment_status: 'collected',
    });
    expect(await journals(p, sale.sale_id)).toHaveLength(1);
  });
});

describe('orders.get', () => {
  it('answers the D8 record by sale_id or external_reference', async () => {
    const body = orderBody(a, {
      items: [{ product_id: a.productId, variant_id: a.variantId, quantity: 2 }],
    });
    const sale = await placed(s, body);
    const res = await getSale(s, { external_reference: body.external_reference });
    expect(res.body).toEqual({
      status: 'success',
      data: {
        sale_id: sale.sale_id,
        reference: sale.reference,
        external_reference: body.external_reference,
        vendor_id: a.vendorId,
        payment_method: 'cod',
        state: 'awaiting_delivery',
        payment_status: 'pending',
        checkout_url: null,
        gateway_amount_ghs: null,
        refund_due_ghs: null,
        refund: null,
        delivery: {
          order_id: expect.stringMatching(/^dlv_/),
          status: 'placed',
          tracking_url: expect.stringMatching(/\/track\/[A-Za-z0-9_-]+$/),
        },
        items: [
          {
            product_id: a.productId,
            variant_id: a.variantId,
            title: 'Handwoven kente stole',
            label: 'Gold and green',
            quantity: 2,
            unit_price_ghs: 180,
            line_total_ghs: 360,
          },
        ],
        subtotal_ghs: 360,
        delivery_fee_ghs: sale.delivery_fee_ghs,
        markup_ghs: 0,
        total_ghs: sale.total_ghs,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect((await getSale(s, { sale_id: sale.sale_id })).body).toEqual(res.body);
  });

  it('answers identical 404 SALE_NOT_FOUND for a missing sale and one of another app or environment', async () => {
    const sale = await placed(s, orderBody(a));
    const strip = (b: any) => ({ ...b, request_id: undefined });
    const missing = await getSale(s, { sale_id: 'sale_00000000000000000000000000' });
    expect([missing.status, missing.body.code]).toEqual([404, 'SALE_NOT_FOUND']);
    const otherApp = await salesPartner(p);
    const staging = await addKey(p, s, { environment: 'staging', scopes: ['safe:read'] });
    for (const who of [otherApp, staging]) {
      expect(strip((await getSale(who, { sale_id: sale.sale_id })).body)).toEqual(
        strip(missing.body),
      );
    }
    expect(strip((await verifySale(otherApp, sale.sale_id)).body)).toEqual(
      strip((await verifySale(otherApp, 'sale_nope')).body),
    );
    expect((await verifySale(otherApp, sale.sale_id)).body.code).toBe('SALE_NOT_FOUND');
  });

  it('needs exactly one of sale_id and external_reference; reads work with staging keys', async () => {
    expect((await getSale(s, {})).body.code).toBe('VALIDATION_ERROR');
    expect((await getSale(s, { sale_id: 'sale_x', external_reference: 'abc' })).body.code).toBe(
      'VALIDATION_ERROR',
    );
    const staging = await createPartner(p, { scopes: SALE_SCOPES });
    expect((await getSale(staging, { sale_id: 'sale_x' })).body.code).toBe('SALE_NOT_FOUND');
    expect((await verifySale(staging, 'sale_x')).body.code).toBe('PRODUCTION_KEY_REQUIRED');
  });
});
