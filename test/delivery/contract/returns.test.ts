import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { storedOrder } from '../../helpers/orders-read.ts';
import {
  getSale,
  orderBody as saleBody,
  placed,
  salesPartner,
  shop,
  stockOf,
} from '../../catalog/helpers.ts';
import { balance, expectLedgerConsistent, topUp, walletPartner } from '../../wallet/helpers.ts';
import { ACCRA_CENTRAL, EAST_LEGON, orderBody } from '../fixtures.ts';

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  s = await createPartner(p);
});
afterAll(() => p.close());

type Res = { status: number; body: any };
const call = (op: string, body: unknown, who: PartnerSetup = s): Promise<Res> =>
  who.client.send('POST', `/api/v1/delivery/${op}`, { body });
const move = (id: string, status: string, extra: Record<string, unknown> = {}): Promise<Res> =>
  p.admin('POST', `/delivery/orders/${id}/status`, { status, ...extra });
const db = () => p.app.platform.db;

async function inTransit(
  who: PartnerSetup = s,
  body: Record<string, unknown> = orderBody(),
): Promise<string> {
  const res = await call('orders.create', body, who);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.data.order_details.order_id;
  for (const st of ['accepted', 'pickedUp', 'in_transit'])
    expect((await move(id, st)).status).toBe(200);
  return id;
}
/** The order's state as the delivery module's face finds it, with what orders.get does not show (version). */
const row = async (id: string) => {
  const { status, version, delivery_attempts, failure_reason, failure_note, return_fee_pesewas } =
    await storedOrder(p, id);
  return { status, version, delivery_attempts, failure_reason, failure_note, return_fee_pesewas };
};
const outbox = async (id: string): Promise<any[]> =>
  (await eventsAbout(p, id)).sort((a, b) => a.sequence - b.sequence);

describe('a failed delivery attempt', () => {
  it('sends the order out again, counting the attempt, with the reason on orders.get, orders.track and the event', async () => {
    const id = await inTransit();
    const again = await move(id, 'in_transit', {
      failure_reason: 'recipient_absent',
      note: 'Nobody at the gate',
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({
      status: 'in_transit',
      delivery_attempts: 2,
      failure: { reason: 'recipient_absent', note: 'Nobody at the gate' },
    });
    expect(await row(id)).toMatchObject({
      status: 'in_transit',
      delivery_attempts: 2,
      failure_reason: 'recipient_absent',
    });

    const got = (await call('orders.get', { order_id: id })).body.data;
    expect(got).toMatchObject({
      status: 'in_transit',
      delivery_attempts: 2,
      failure: { reason: 'recipient_absent', note: 'Nobody at the gate' },
    });
    const track = (await call('orders.track', { order_id: id })).body.data;
    expect(track).toMatchObject({
      current_status: 'in_transit',
      delivery_attempts: 2,
      failure: { reason: 'recipient_absent' },
    });
    expect(track.timeline.map((t: any) => t.status)).toEqual([
      'placed',
      'accepted',
      'pickedUp',
      'in_transit',
      'delivered',
    ]);

    const events = await outbox(id);
    expect(events.at(-1)).toMatchObject({ type: 'delivery.order.status_changed', sequence: 5 });
    expect(events.at(-1).payload.data).toMatchObject({
      status: 'in_transit',
      previous_status: 'in_transit',
      delivery_attempts: 2,
      failure_reason: 'recipient_absent',
      failure_note: 'Nobody at the gate',
    });

    // The second try succeeds.
    expect((await move(id, 'delivered')).body).toMatchObject({ status: 'delivered' });
  });

  it('allows DELIVERY_MAX_ATTEMPTS (2) attempts, then only the return', async () => {
    const id = await inTransit();
    expect((await move(id, 'in_transit', { failure_reason: 'refused' })).status).toBe(200);
    const third = await move(id, 'in_transit', { failure_reason: 'refused' });
    expect([third.status, third.body.code]).toEqual([409, 'INVALID_TRANSITION']);
    expect(third.body.message).toContain('no delivery attempt is left');
    expect(third.body.details).toEqual([
      {
        field: 'status',
        issue:
          'must be one of delivered, returning, cancelled, failed (the moves allowed from in_transit)',
      },
    ]);
    expect(await row(id)).toMatchObject({ delivery_attempts: 2, version: 5 });
    expect((await move(id, 'returning', { failure_reason: 'refused' })).status).toBe(200);
  });

  it('lets one of two identical concurrent attempts win', async () => {
    const id = await inTransit();
    const results = await Promise.all(
      [0, 1].map(() => move(id, 'in_transit', { failure_reason: 'wrong_address' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await row(id)).toMatchObject({ delivery_attempts: 2, version: 5 });
    expect(
      (await outbox(id)).filter((e) => e.payload.data.previous_status === 'in_transit'),
    ).toHaveLength(1);
  });

  it('refuses a could-not-deliver move without a reason, other without a note, and a reason on another move (400, nothing changes)', async () => {
    const id = await inTransit();
    const before = await row(id);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['in_transit', {}, 'VALIDATION_ERROR'],
      ['returning', {}, 'VALIDATION_ERROR'],
      ['returning', { failure_reason: 'other' }, 'VALIDATION_ERROR'],
      ['delivered', { failure_reason: 'refused' }, 'VALIDATION_ERROR'],
      ['returning', { failure_reason: 'lost' }, 'VALIDATION_ERROR'],
      ['returning', { failure_reason: 'refused', note: 'bad\u0000note' }, 'VALIDATION_ERROR'],
      ['returning', { failure_reason: 'refused', note: 'x'.repeat(501) }, 'VALIDATION_ERROR'],
      ['returned', { failure_reason: 'refused' }, 'INVALID_TRANSITION'],
    ];
    for (const [status, extra, code] of cases) {
      const res = await move(id, status, extra);
      expect(
        [res.status >= 400 && res.status < 500, res.body.code],
        `${status} ${JSON.stringify(extra).slice(0, 60)}`,
      ).toEqual([true, code]);
    }
    expect(await row(id)).toEqual(before);
    expect(
      (await move(id, 'returning', { failure_reason: 'other', note: 'Gate locked, phone off' }))
        .status,
    ).toBe(200);
    expect(await row(id)).toMatchObject({
      failure_reason: 'other',
      failure_note: 'Gate locked, phone off',
    });
  });
});

describe('a return to the pickup point', () => {
  it('goes returning → returned with its timeline entries and events in order, and nothing leaves returned', async () => {
    const id = await inTransit();
    expect((await move(id, 'in_transit', { failure_reason: 'recipient_absent' })).status).toBe(200);
    const returning = await move(id, 'returning', {
      failure_reason: 'refused',
      note: 'Refused at the door',
    });
    expect(returning.body).toMatchObject({
      status: 'returning',
      status_details: { description: expect.stringContaining('back to the pickup point') },
    });
    expect((await call('orders.cancel', { order_id: id })).body.code).toBe('INVALID_ORDER_STATUS');
    expect((await move(id, 'cancelled')).body.code).toBe('INVALID_TRANSITION');
    expect((await move(id, 'returned')).status).toBe(200);

    const events = await outbox(id);
    expect(events.map((e) => [e.type, e.sequence])).toEqual([
      ['delivery.order.created', 1],
      ['delivery.order.status_changed', 2],
      ['delivery.order.status_changed', 3],
      ['delivery.order.status_changed', 4],
      ['delivery.order.status_changed', 5],
      ['delivery.order.returning', 6],
      ['delivery.order.returned', 7],
    ]);
    expect(events[5].payload.data).toMatchObject({
      status: 'returning',
      previous_status: 'in_transit',
      failure_reason: 'refused',
      failure_note: 'Refused at the door',
      delivery_attempts: 2,
    });
    expect(events[6].payload.data).toMatchObject({
      status: 'returned',
      previous_status: 'returning',
      sequence: 7,
    });
    expect(events[6].payload.data).not.toHaveProperty('return_fee_ghs');

    const track = (await call('orders.track', { order_id: id })).body.data;
    expect(track.timeline.map((t: any) => [t.status, t.completed])).toEqual([
      ['placed', true],
      ['accepted', true],
      ['pickedUp', true],
      ['in_transit', true],
      ['delivered', false],
      ['returning', true],
      ['returned', true],
    ]);
    const got = (await call('orders.get', { order_id: id })).body.data;
    expect(got).toMatchObject({
      status: 'returned',
      failure: { reason: 'refused' },
      order_info: { payment_status: 'pending' },
    });
    expect(got.order_info).not.toHaveProperty('return_fee');

    for (const to of ['in_transit', 'delivered', 'returning', 'failed', 'cancelled']) {
      const res = await move(
        id,
        to,
        to === 'in_transit' || to === 'returning' ? { failure_reason: 'refused' } : {},
      );
      expect([res.status, res.body.code], to).toEqual([409, 'INVALID_TRANSITION']);
    }
    expect((await call('orders.cancel', { order_id: id })).body.code).toBe('INVALID_ORDER_STATUS');
  });

  it("counts a returned order as finished but not delivered in the dashboard's daily figures", async () => {
    const x = await createPartner(p);
    const delivered = await inTransit(x);
    await move(delivered, 'delivered');
    const returned = await inTransit(x);
    await move(returned, 'returning', { failure_reason: 'recipient_absent' });
    await move(returned, 'returned');
    await inTransit(x);
    const today = new Date().toISOString().slice(0, 10);
    const [day] = await p.app.platform.delivery!.partnerOrders.daily(x.partnerId, today, 1);
    expect(day).toMatchObject({ day: today, created: 3, finished: 2, delivered: 1 });
  });

  it('refuses returning before the order is in transit, and returned before returning', async () => {
    const res = await call('orders.create', orderBody());
    const id = res.body.data.order_details.order_id;
    expect((await move(id, 'returning', { failure_reason: 'refused' })).body.code).toBe(
      'INVALID_TRANSITION',
    );
    for (const st of ['accepted', 'pickedUp']) await move(id, st);
    expect((await move(id, 'in_transit', { failure_reason: 'refused' })).body.code).toBe(
      'VALIDATION_ERROR',
    );
    expect((await move(id, 'returned')).body.code).toBe('INVALID_TRANSITION');
    expect(await row(id)).toMatchObject({ status: 'pickedUp', delivery_attempts: 0 });
    // failed may say why too; the failed order can still be cancelled (and a wallet-funded one refunded).
    expect(
      (await move(id, 'failed', { failure_reason: 'wrong_address', note: 'No such street' })).body,
    ).toMatchObject({
      status: 'failed',
      failure: { reason: 'wrong_address', note: 'No such street' },
    });
    expect((await call('orders.cancel', { order_id: id })).status).toBe(200);
  });
});

describe('the return fee of a wallet-funded order', () => {
  it('keeps the delivery fee and charges 50% of it once, even when returned is sent twice at once', async () => {
    const w = await walletPartner(p);
    await topUp(w, 100);
    const body = orderBody({ payment: { payer: 'partner' } });
    body.pickup.coordinates = ACCRA_CENTRAL;
    body.delivery.coordinates = EAST_LEGON;
    const id = await inTransit(w, body);
    const fee = (await call('orders.get', { order_id: id }, w)).body.data.order_info
      .amount as number;
    const returnFee = Math.round(fee * 50) / 100;
    expect(await balance(w)).toBe(100 - fee);
    expect((await move(id, 'returning', { failure_reason: 'wrong_address' })).status).toBe(200);

    const results = await Promise.all([0, 1].map(() => move(id, 'returned')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('INVALID_TRANSITION');

    const journals = await db().query<any>(
      'select kind from ledger_journals where subject_id = $1 order by created_at',
      [id],
    );
    expect(journals.map((j) => j.kind)).toEqual(['order_fee', 'order_return_fee']);
    expect(await balance(w)).toBeCloseTo(100 - fee - returnFee, 2);
    const got = (await call('orders.get', { order_id: id }, w)).body.data;
    expect(got).toMatchObject({
      status: 'returned',
      order_info: { payment_status: 'wallet_debited', amount: fee, return_fee: returnFee },
    });
    const returned = (await outbox(id)).filter((e) => e.type === 'delivery.order.returned');
    expect(returned).toHaveLength(1);
    expect(returned[0].payload.data).toMatchObject({
      return_fee_ghs: returnFee,
      failure_reason: 'wrong_address',
    });

    // Nothing is refunded later: the refund job has nothing to do for a returned order.
    await p.app.platform.delivery!.refunds.tick();
    expect(await balance(w)).toBeCloseTo(100 - fee - returnFee, 2);
    await expectLedgerConsistent(p);
  });
});

describe('a cash-on-delivery sale whose delivery is returned', () => {
  it('fails and restocks once, with one safe.order.failed', async () => {
    const sp = await salesPartner(p);
    const b = await shop(p);
    const sale = await placed(
      sp,
      saleBody(b, { items: [{ product_id: b.productId, variant_id: b.variantId, quantity: 3 }] }),
    );
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 3 });
    const orderId = (await getSale(sp, { sale_id: sale.sale_id })).body.data.delivery.order_id;
    for (const st of ['accepted', 'pickedUp', 'in_transit'])
      expect((await move(orderId, st)).status).toBe(200);
    expect((await move(orderId, 'returning', { failure_reason: 'refused' })).status).toBe(200);
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 3 });
    expect((await move(orderId, 'returned')).status).toBe(200);

    const got = (
      await sp.client.send<any>('GET', '/api/v1/safe-catalog/orders.get', {
        query: { sale_id: sale.sale_id },
      })
    ).body.data;
    expect(got).toMatchObject({
      state: 'failed',
      payment_status: 'not_collected',
      delivery: { status: 'returned' },
    });
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 0 });
    // The job and a verify find nothing more to do.
    await p.app.platform.catalog!.jobs.tick();
    await sp.client.send('POST', '/api/v1/safe-catalog/orders.verify', {
      body: { sale_id: sale.sale_id },
    });
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 0 });
    const failed: any[] = await eventsAbout(p, sale.sale_id, 'safe.order.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0].payload.data).toMatchObject({ failure_reason: 'delivery_returned' });
  });
});
