import type { PartnerClient } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import type { TestPlatform } from '../../helpers/harness.ts';
import type { Receiver } from '../../webhooks/receiver.ts';
import { startClockedPartner } from '../helpers.ts';

/**
 * One partner's sandbox day on a test clock: an estimate's quote, an order with a window, the clock
 * advanced in steps; the webhook events the partner receives, in order, stamped with the clock's time.
 */

// The server's own time runs from 07:00 on Monday 1 March 2027 (ahead of the database's, so every
// event is due to send at once); the test clock stands still at 08:00 until it is advanced.
const START = Date.parse('2027-03-01T07:00:00Z');
const offset = START - Date.now();
const clock = () => Date.now() + offset;
const FROZEN = '2027-03-01T08:00:00.000Z';
const at = (hhmm: string) => Date.parse(`2027-03-01T${hhmm}:00Z`);
// The sandbox courier rests two hours between moves, so this order's window is missed before it is taken.
const STEP_MS = 2 * 3_600_000;

let p: TestPlatform;
let rx: Receiver;
let client: PartnerClient;
beforeAll(async () => {
  ({ p, rx, client } = await startClockedPartner(clock, {
    SANDBOX_COURIER_STEP_SECONDS: String(STEP_MS / 1000),
  }));
});
afterAll(async () => {
  await p.close();
  await rx.close();
});

type Res = { status: number; body: any };
const call = (op: string, body: unknown): Promise<Res> =>
  client.send('POST', `/api/v1/delivery/${op}`, { body });
// In clock time, not in arrival order: events due together are sent at once and may arrive either
// way round (CI saw an accept land before the late notice raised an hour of clock time earlier).
const received = (orderId: string) =>
  rx
    .on('/hooks')
    .map((r) => JSON.parse(r.body))
    .filter((e) => e.data.order_id === orderId)
    .map((e) => ({ type: e.type, status: e.data.status, at: e.created_at }))
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
const estimateBody = (clockId: string) => ({
  pickup_location: { coordinates: orderBody().pickup.coordinates },
  delivery_location: { coordinates: orderBody().delivery.coordinates },
  test_clock_id: clockId,
});

describe('a sandbox test clock', () => {
  it('runs an order through its quote, window and sandbox courier in clock time, step by step', async () => {
    const made = await call('test_clocks.create', { frozen_time: FROZEN, name: 'scenario' });
    const clockId = made.body.data.id as string;

    // Quotes priced on the clock expire 15 minutes after its time, not the server's.
    const quote = (await call('orders.estimate', estimateBody(clockId))).body.data;
    expect(quote.quote_expires_at).toBe('2027-03-01T08:15:00.000Z');
    const late = (await call('orders.estimate', estimateBody(clockId))).body.data;
    // A quote made in real time cannot price an order on the clock.
    const realTime = (
      await call('orders.estimate', { ...estimateBody(clockId), test_clock_id: undefined })
    ).body.data;

    const order = await call(
      'orders.create',
      orderBody({
        test_clock_id: clockId,
        quote_id: quote.quote_id,
        pickup_ready_at: '2027-03-01T10:00:00Z',
        dropoff_deadline: '2027-03-01T11:00:00Z',
      }),
    );
    expect(order.status).toBe(201);
    expect(order.body.data.order_details).toMatchObject({
      test_clock_id: clockId,
      amount: quote.estimated_price,
    });
    const id = order.body.data.order_details.order_id as string;
    const mismatched = await call(
      'orders.create',
      orderBody({ test_clock_id: clockId, quote_id: realTime.quote_id }),
    );
    expect([mismatched.status, mismatched.body.code]).toEqual([400, 'QUOTE_MISMATCH']);
    // An order beside it on no clock: advances never move it.
    const plain = (await call('orders.create', orderBody())).body.data.order_details.order_id;
    await expect
      .poll(() => received(id))
      .toEqual([{ type: 'delivery.order.created', status: 'placed', at: FROZEN }]);

    // 08:20: the second quote has expired in clock time (seconds after it was issued in real time).
    const advance = (to: string) =>
      call('test_clocks.advance', { test_clock_id: clockId, frozen_time: to });
    expect((await advance('2027-03-01T08:20:00Z')).body.data).toMatchObject({
      frozen_time: '2027-03-01T08:20:00.000Z',
      status: 'ready',
    });
    const expired = await call(
      'orders.create',
      orderBody({ test_clock_id: clockId, quote_id: late.quote_id }),
    );
    expect([expired.status, expired.body.code]).toEqual([400, 'QUOTE_EXPIRED']);
    expect((await call('orders.get', { order_id: id })).body.data.status).toBe('placed');

    // To 12:00: dispatch offers the job from 09:30 (ready less the lead); the courier takes it a step
    // later, after its window was missed; it then moves one status per step as the clock goes on.
    await advance('2027-03-01T12:00:00Z');
    const [job] = await p.app.platform.db.query<{ miss_at: Date }>(
      'select miss_at from dispatch_jobs where order_id = $1',
      [id],
    );
    const missAt = new Date(job!.miss_at).toISOString();
    expect(Date.parse(missAt)).toBeGreaterThan(at('09:30'));
    expect(Date.parse(missAt)).toBeLessThan(at('11:00'));
    const taken = at('09:30') + STEP_MS + 1;
    await expect
      .poll(() => received(id))
      .toEqual([
        { type: 'delivery.order.created', status: 'placed', at: FROZEN },
        { type: 'delivery.order.late', status: 'placed', at: missAt },
        {
          type: 'delivery.order.status_changed',
          status: 'accepted',
          at: new Date(taken).toISOString(),
        },
      ]);

    // Two days on in one call: every remaining step, in order, at its own time.
    await advance('2027-03-03T12:00:00Z');
    const stepAt = (n: number) => new Date(taken + n * (STEP_MS + 1)).toISOString();
    await expect
      .poll(() => received(id).slice(3))
      .toEqual([
        { type: 'delivery.order.status_changed', status: 'pickedUp', at: stepAt(1) },
        { type: 'delivery.order.status_changed', status: 'in_transit', at: stepAt(2) },
        { type: 'delivery.order.status_changed', status: 'delivered', at: stepAt(3) },
      ]);
    const got = (await call('orders.get', { order_id: id })).body.data;
    expect(got.status_details.timestamp).toBe(stepAt(3));
    expect(got.order_info.test_clock_id).toBe(clockId);
    expect((await call('orders.get', { order_id: plain })).body.data.status).toBe('placed');
    expect((await call('test_clocks.get', { test_clock_id: clockId })).body.data).toMatchObject({
      frozen_time: '2027-03-03T12:00:00.000Z',
      status: 'ready',
    });
  });

  it("retries a clock's failed webhook in the clock's time, never in real time", async () => {
    const clockId = (await call('test_clocks.create', { frozen_time: FROZEN })).body.data.id;
    // The endpoint fails the order's first two deliveries, then takes the third.
    rx.script.set('/flaky', [500, 503]);
    const order = await call(
      'orders.create',
      orderBody({ test_clock_id: clockId, webhook_url: `${rx.url}/flaky` }),
    );
    const id = order.body.data.order_details.order_id as string;
    const event = async () =>
      (
        await p.app.platform.db.query<{
          attempts: number;
          clock_retry_at: Date | null;
          status: string;
        }>(
          `select attempts, clock_retry_at, delivery_status as status from outbox_events
            where subject_id = $1 and type = 'delivery.order.created'`,
          [id],
        )
      )[0]!;
    // Failed once, then parked: its retry is 10 minutes after it was raised, in clock time.
    await expect.poll(async () => (await event()).attempts).toBe(1);
    expect(new Date((await event()).clock_retry_at!).toISOString()).toBe(
      '2027-03-01T08:10:00.000Z',
    );
    expect(rx.on('/flaky')).toHaveLength(1);

    const advance = (to: string) =>
      call('test_clocks.advance', { test_clock_id: clockId, frozen_time: to });
    await advance('2027-03-01T08:09:59Z');
    expect((await event()).attempts).toBe(1);
    await advance('2027-03-01T08:10:00Z');
    await expect.poll(async () => (await event()).attempts).toBe(2);
    // Failed again: an hour after the retry, still in clock time.
    expect(new Date((await event()).clock_retry_at!).toISOString()).toBe(
      '2027-03-01T09:10:00.000Z',
    );
    await advance('2027-03-01T09:30:00Z');
    await expect.poll(async () => (await event()).status).toBe('delivered');
    const sent = rx.on('/flaky').map((r) => JSON.parse(r.body));
    expect(sent.map((e) => [e.type, e.created_at])).toEqual([
      ['delivery.order.created', FROZEN],
      ['delivery.order.created', FROZEN],
      ['delivery.order.created', FROZEN],
    ]);
  });
});
