import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/platform/errors.ts';
import type { PartnerSetup, TestPlatform } from '../../helpers/harness.ts';
import { orderBody as deliveryOrderBody } from '../../delivery/fixtures.ts';
import { orderOf } from '../../helpers/orders-read.ts';
import {
  decide,
  expectLedgerBalanced,
  getSale,
  orderBody,
  placed,
  shop,
  stockOf,
  useSalesPlatform,
  verifySale,
} from '../helpers.ts';

/**
 * A sale's delivery order is created by the platform and tied to the sale by identity: a partner
 * cannot take its reference first, and a service raises the same application errors whoever calls
 * it (a route, a job or another module).
 */
let p: TestPlatform;
let s: PartnerSetup;
useSalesPlatform((started) => ({ p, s } = started));

const db = () => p.app.platform.db;
const createDelivery = (reference: string) =>
  s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
    body: { ...deliveryOrderBody(), order_reference: reference },
  });

describe("a partner cannot pre-empt a sale's delivery order", () => {
  it('orders created with every reference a partner could derive from the sale are never linked, and do not block its dispatch', async () => {
    const b = await shop(p);
    const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
    const guesses = [
      `safe-${sale.sale_id}`,
      `safe-${sale.reference}`,
      sale.sale_id,
      sale.reference,
      `sale-${sale.sale_id}`,
    ];
    const theirs: string[] = [];
    for (const reference of guesses) {
      const res = await createDelivery(reference);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      theirs.push(res.body.data.order_details.order_id);
    }
    expect(await decide(sale.checkout_url, 'pay')).toBe(200);
    const got = (await getSale(s, { sale_id: sale.sale_id })).body.data;
    expect(got).toMatchObject({
      state: 'confirmed',
      delivery: { order_id: expect.stringMatching(/^dlv_/), status: 'placed' },
    });
    expect(theirs).not.toContain(got.delivery.order_id);
    // The platform's order carries the sale's own, unguessable reference.
    const { order_reference } = await orderOf(s, got.delivery.order_id);
    expect(guesses).not.toContain(order_reference);
    expect(order_reference).toMatch(/^safe-[A-Za-z0-9_-]{16}$/);
  });

  it('a cod sale dispatches at once even when the partner holds the old derived reference', async () => {
    const b = await shop(p);
    // The partner cannot know the next sale id; even a matching one would not collide.
    const sale = await placed(s, orderBody(b));
    expect((await createDelivery(`safe-${sale.sale_id}`)).status).toBe(201);
    expect((await verifySale(s, sale.sale_id)).body.data).toMatchObject({
      state: 'awaiting_delivery',
      delivery_status: 'placed',
    });
  });
});

describe('services raise application errors whoever calls them', () => {
  it("delivery's create called by another module answers DUPLICATE_ORDER_REFERENCE, not a database error", async () => {
    const orders = p.app.platform.delivery!.orders;
    const owner = { partnerId: s.partnerId, appId: s.appId, environment: 'production' as const };
    const input = { ...deliveryOrderBody(), order_reference: `direct-${Date.now()}` } as never;
    await orders.create(owner, input);
    const err = await orders.create(owner, input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ statusCode: 409, code: 'DUPLICATE_ORDER_REFERENCE' });
  });

  it('a database query outside any route answers an application error for data the database refuses', async () => {
    for (const value of ['a\u0000b']) {
      const err = await db()
        .query('select $1::text', [value])
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    }
    const inTx = await db()
      .transaction((tx) => tx.query("select '2024-02-30'::date"))
      .catch((e: unknown) => e);
    expect(inTx).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
  });
});

describe('a sale whose delivery order is refused for good', () => {
  it('fails and restocks (with its refund owed) instead of being retried forever', async () => {
    const b = await shop(p);
    const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
    // The vendor's pickup phone became unusable after the sale: delivery refuses the order.
    await db().query("update vendors set pickup_contact_phone = 'not a phone' where id = $1", [
      b.vendorId,
    ]);
    expect(await decide(sale.checkout_url, 'pay')).toBe(200);
    expect((await getSale(s, { sale_id: sale.sale_id })).body.data).toMatchObject({
      state: 'confirmed',
      delivery: null,
    });
    await db().query(
      "update sales set created_at = created_at - interval '1 minute' where id = $1",
      [sale.sale_id],
    );
    await p.app.platform.catalog!.jobs.tick();
    const got = (await getSale(s, { sale_id: sale.sale_id })).body.data;
    expect(got).toMatchObject({
      state: 'failed',
      payment_status: 'refund_due',
      refund_due_ghs: sale.total_ghs,
      delivery: null,
    });
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 0 });
    const failed = (await p.admin('GET', '/sales?state=failed&limit=200')).body.sales.find(
      (x: any) => x.sale_id === sale.sale_id,
    );
    expect(failed).toMatchObject({ failure_reason: 'delivery_refused' });
    // The next run leaves it alone.
    expect((await p.app.platform.catalog!.jobs.tick()).dispatched).toBe(0);
    await expectLedgerBalanced(p);
  });
});
