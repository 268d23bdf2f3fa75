import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addKey,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { orderBody } from '../fixtures.ts';
import { expectDeliveredAt } from '../delivered-at.ts';

let p: TestPlatform;
let s: PartnerSetup;
let now = Date.now();
beforeAll(async () => {
  // The clock moves only when a test moves it (the sandbox courier's steps); signatures allow 5 minutes.
  p = await startPlatform({ socket: false, clock: () => now });
  s = await createPartner(p);
});
afterAll(() => p.close());

type Res = { status: number; body: any };
const call = (op: string, body: unknown, who: PartnerSetup = s): Promise<Res> =>
  who.client.send('POST', `/api/v1/delivery/${op}`, { body });
async function newOrder(
  who: PartnerSetup = s,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const res = await call('orders.create', orderBody(overrides), who);
  expect(res.status).toBe(201);
  return res.body.data.order_details.order_id;
}
const move = (id: string, status: string) =>
  p.admin('POST', `/delivery/orders/${id}/status`, { status });
const withoutRequestId = (b: any) => ({ ...b, request_id: undefined });

describe('orders.get, orders.track, orders.cancel', () => {
  it("answers identical 404 ORDER_NOT_FOUND bodies for a missing order, another app's and the other environment's", async () => {
    const id = await newOrder();
    const otherApp = await createPartner(p);
    await p.admin('PATCH', `/partners/${s.partnerId}`, { production_active: true });
    const prodKey = await addKey(p, s, { environment: 'production' });
    for (const op of ['orders.get', 'orders.track', 'orders.cancel']) {
      const missing = await call(op, { order_id: 'dlv_00000000000000000000000000' });
      const foreign = await call(op, { order_id: id }, otherApp);
      const otherEnv = await call(op, { order_id: id }, prodKey);
      expect([missing.status, missing.body.code], op).toEqual([404, 'ORDER_NOT_FOUND']);
      expect(withoutRequestId(foreign.body), op).toEqual(withoutRequestId(missing.body));
      expect(withoutRequestId(otherEnv.body), op).toEqual(withoutRequestId(missing.body));
    }
  });

  it('returns order details with status, description, payment status, fee and tracking link', async () => {
    const id = await newOrder(s, { order_reference: 'details-1', delivery_date: '2031-01-07' });
    const res = await call('orders.get', { order_id: id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      order_reference: 'details-1',
      internal_order_id: id,
      status: 'placed',
      status_details: { description: expect.any(String), timestamp: expect.any(String) },
      order_info: {
        recipient_name: 'Ama Mensah',
        recipient_address: '12 Oxford Street, Accra',
        pickup_date: '2031-01-07',
        payment_status: 'pending',
        amount: expect.any(Number),
      },
      tracking_url: expect.stringMatching(/\/track\/[A-Za-z0-9_-]{20,}$/),
    });
  });

  it('tracks with the phone masked and the five stages in order', async () => {
    const id = await newOrder();
    await move(id, 'accepted');
    const res = await call('orders.track', { order_id: id });
    expect(res.body.data).toMatchObject({
      order_id: id,
      recipient_phone_last4: '4567',
      current_status: 'accepted',
      estimated_delivery_time: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain('241234567');
    const timeline = res.body.data.timeline;
    expect(timeline.map((t: any) => t.status)).toEqual([
      'placed',
      'accepted',
      'pickedUp',
      'in_transit',
      'delivered',
    ]);
    expect(timeline.map((t: any) => t.completed)).toEqual([true, true, false, false, false]);
    expect(timeline[1].timestamp).toEqual(expect.any(String));
    expect(timeline[2]).not.toHaveProperty('timestamp');
  });

  it('cancels in every state but delivered and cancelled, failed included', async () => {
    for (const path of [
      [],
      ['accepted'],
      ['accepted', 'pickedUp'],
      ['accepted', 'pickedUp', 'in_transit'],
      ['accepted', 'failed'],
    ]) {
      const id = await newOrder();
      for (const st of path) expect((await move(id, st)).status).toBe(200);
      const res = await call('orders.cancel', {
        order_id: id,
        reason: 'Customer changed their mind',
      });
      expect(res.status, path.join('>')).toBe(200);
      expect(res.body.data).toMatchObject({
        internal_order_id: id,
        status: 'cancelled',
        cancellation_reason: 'Customer changed their mind',
        refund_status: 'not_applicable',
        cancelled_at: expect.any(String),
      });
      const again = await call('orders.cancel', { order_id: id });
      expect([again.status, again.body.code]).toEqual([400, 'INVALID_ORDER_STATUS']);
    }
    const delivered = await newOrder();
    for (const st of ['accepted', 'pickedUp', 'in_transit', 'delivered']) await move(delivered, st);
    const res = await call('orders.cancel', { order_id: delivered });
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_ORDER_STATUS']);
  });

  it('lets exactly one of concurrent cancels win', async () => {
    const id = await newOrder();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call('orders.cancel', { order_id: id })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body.code === 'INVALID_ORDER_STATUS')).toHaveLength(7);
  });
});

describe('operator status moves', () => {
  it('follows the state machine: 409 INVALID_TRANSITION for illegal moves, 404 for unknown orders', async () => {
    const id = await newOrder();
    const illegal = await move(id, 'delivered');
    expect(illegal.body).toMatchObject({
      code: 'INVALID_TRANSITION',
      message:
        'An order cannot move from placed to delivered: from placed it can move to accepted, cancelled, failed.',
      details: [
        {
          field: 'status',
          issue: 'must be one of accepted, cancelled, failed (the moves allowed from placed)',
        },
      ],
    });
    expect((await move(id, 'pickedUp')).status).toBe(409);
    const ok = await move(id, 'accepted');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      internal_order_id: id,
      status: 'accepted',
      app_id: s.appId,
      environment: 'staging',
    });
    expect((await move(id, 'failed')).status).toBe(200);
    expect((await move(id, 'accepted')).body).toMatchObject({
      code: 'INVALID_TRANSITION',
      details: [
        { field: 'status', issue: 'must be one of cancelled (the moves allowed from failed)' },
      ],
    });
    expect((await move('dlv_missing', 'accepted')).body.code).toBe('ORDER_NOT_FOUND');
    expect((await move(id, 'bogus')).body.code).toBe('VALIDATION_ERROR');
  });

  it('answers an operator cancel of a finished order with 409 INVALID_TRANSITION, like any illegal move', async () => {
    const id = await newOrder();
    for (const st of ['accepted', 'pickedUp', 'in_transit', 'delivered'])
      expect((await move(id, st)).status).toBe(200);
    expect(await expectDeliveredAt(p, id)).toBe(now);
    const refused = await move(id, 'cancelled');
    expect([refused.status, refused.body.code]).toEqual([409, 'INVALID_TRANSITION']);
    expect((await call('orders.cancel', { order_id: id })).body.code).toBe('INVALID_ORDER_STATUS');
  });

  it('records every change in the timeline and as numbered webhook events', async () => {
    const id = await newOrder();
    for (const st of ['accepted', 'pickedUp', 'in_transit']) await move(id, st);
    await call('orders.cancel', { order_id: id });
    const events: any[] = (await eventsAbout(p, id)).sort((a, b) => a.sequence - b.sequence);
    expect(events.map((e) => [e.type, e.sequence])).toEqual([
      ['delivery.order.created', 1],
      ['delivery.order.status_changed', 2],
      ['delivery.order.status_changed', 3],
      ['delivery.order.status_changed', 4],
      ['delivery.order.cancelled', 5],
    ]);
    expect(events[3].payload.data).toMatchObject({
      status: 'in_transit',
      previous_status: 'pickedUp',
      sequence: 4,
      order_id: id,
    });
    const timeline = (await call('orders.track', { order_id: id })).body.data.timeline;
    expect(timeline.at(-1)).toMatchObject({ status: 'cancelled', completed: true });
  });
});

describe('sandbox courier', () => {
  it('moves staging orders one stage per step to delivered, and never production orders', async () => {
    const courier = p.app.platform.dispatch!.sandbox;
    const staging = await newOrder();
    await p.admin('PATCH', `/partners/${s.partnerId}`, { production_active: true });
    const prod = await addKey(p, s, { environment: 'production' });
    const production = await newOrder(prod);
    const statuses: string[] = [];
    for (let step = 0; step < 5; step++) {
      now += 31_000; // one step of the default 30 s schedule
      await courier.tick();
      statuses.push((await call('orders.get', { order_id: staging })).body.data.status);
    }
    expect(statuses).toEqual(['accepted', 'pickedUp', 'in_transit', 'delivered', 'delivered']);
    // Delivered in the fourth step, at that step's time.
    expect(await expectDeliveredAt(p, staging)).toBe(now - 31_000);
    expect((await call('orders.get', { order_id: production }, prod)).body.data.status).toBe(
      'placed',
    );
  });
});

describe('orders.get by order_reference', () => {
  it("finds the calling app's order by its reference, 404 for others, 400 for both or neither", async () => {
    const id = await newOrder(s, { order_reference: 'lookup-by-ref-1' });
    const res = await call('orders.get', { order_reference: 'lookup-by-ref-1' });
    expect(res.body.data.internal_order_id).toBe(id);
    const other = await createPartner(p);
    expect(
      (await call('orders.get', { order_reference: 'lookup-by-ref-1' }, other)).body.code,
    ).toBe('ORDER_NOT_FOUND');
    expect(
      (await call('orders.get', { order_reference: 'lookup-by-ref-1', order_id: id })).body.code,
    ).toBe('VALIDATION_ERROR');
    expect((await call('orders.get', {})).body.code).toBe('VALIDATION_ERROR');
  });
});
