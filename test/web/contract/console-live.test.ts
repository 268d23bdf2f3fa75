import { afterAll, describe, expect, it } from 'vitest';
import { CouriersService } from '../../../src/modules/couriers/index.ts';
import { DISPATCH_CHANNEL } from '../../../src/modules/dispatch/index.ts';
import { STREAMS_PER_SESSION } from '../../../src/web/console/live.ts';
import { courierNear, PICKUP, productionOrder } from '../../dispatch/helpers.ts';
import { signedInOperator, TOTP_STEP_MS, useConsoleWithPartner } from '../../helpers/console.ts';
import { createPartner, onPostgres, useTwoInstances } from '../../helpers/harness.ts';
import { openStream, type SseStream } from '../../helpers/sse.ts';
import { WebClient } from '../../helpers/web.ts';

describe("the console boards' live channel (server-sent events)", () => {
  const env = useConsoleWithPartner();
  const open: SseStream[] = [];
  afterAll(() => {
    for (const st of open) st.close();
  });
  const stream = async (web: WebClient, board: string, headers: Record<string, string> = {}) => {
    const st = await openStream(web, `/console/events/${board}`, headers);
    open.push(st);
    return st;
  };

  it("sends an order's texts stream an event when they change, the pay board one when an earning is booked", async () => {
    const anon = await openStream(new WebClient(env.p.url), '/console/events/orders/dlv_x/texts');
    expect(anon.status).toBe(404);
    const order = await productionOrder(env.s);
    const signedOut = await stream(new WebClient(env.p.url), `orders/${order}/texts`);
    expect(signedOut.status).toBe(401);
    const { web } = await env.signedIn(['support']);
    expect((await stream(web, 'texts')).status).toBe(404);
    const texts = await stream(web, `orders/${order}/texts`);
    const pay = await stream(web, 'pay');
    expect([texts.status, pay.status]).toEqual([200, 200]);
    const none = await texts.next(() => true);
    expect(none).toMatchObject({ event: 'board', data: { board: 'texts' } });
    const payFirst = await pay.next(() => true);

    const courier = await courierNear(env.p, 1, env.clock.now);
    await env.p.app.platform.dispatch!.service.assign(order, courier.id);
    expect((await texts.next((e) => e.id !== none.id)).data).toEqual({ board: 'texts' });
    await env.p.app.platform.db.transaction((tx) =>
      env.p.app.platform.earnings.book(tx, {
        orderId: order,
        courierId: courier.id,
        occasion: 'delivered',
        zone: null,
        vehicle: 'motorbike',
        roadKm: 3,
      }),
    );
    expect((await pay.next((e) => e.id !== payFirst.id)).data).toEqual({ board: 'pay' });
    // The sign-in's two TOTP steps given back: the later tests' partner calls stay within the skew.
    env.clock.now -= 2 * TOTP_STEP_MS;
  });

  it('answers 401 without a console session, 404 for a board that is not live, 403 to a role the page refuses', async () => {
    const anon = await stream(new WebClient(env.p.url), 'dispatch');
    expect(anon.status).toBe(401);
    const { web } = await env.signedIn(['support']);
    for (const board of ['nope', 'constructor', '__proto__', 'x'.repeat(300)])
      expect((await stream(web, board)).status).toBe(404);
    expect((await stream(web, '%00')).status).toBe(400);
    expect((await stream(web, 'cash')).status).toBe(403);
    expect((await stream(web, 'payouts')).status).toBe(403);
    const dispatch = await stream(web, 'dispatch');
    expect([dispatch.status, dispatch.contentType]).toEqual([
      200,
      'text/event-stream; charset=utf-8',
    ]);
    // A partner member's dashboard cookie is no console session.
    const member = new WebClient(env.p.url);
    member.cookies.set('pp_session', 'whatever');
    expect((await stream(member, 'orders')).status).toBe(401);
  });

  it('lets finance watch the boards its pages show: dispatch and orders read-only, cash and payouts', async () => {
    const { web } = await env.signedIn(['finance']);
    for (const board of ['dispatch', 'orders', 'cash', 'payouts']) {
      const st = await stream(web, board);
      expect(st.status).toBe(200);
      const first = await st.next(() => true);
      expect(first.event).toBe(board === 'dispatch' ? 'dispatch' : 'board');
      st.close();
    }
  });

  it('sends the dispatch map a new order and a courier who moved, without asking', async () => {
    const { web } = await env.signedIn(['support']);
    const courier = await courierNear(env.p, 1, env.clock.now);
    const st = await stream(web, 'dispatch');
    const first = await st.next((e) => e.event === 'dispatch');
    expect(first.data.couriers.map((c: { id: string }) => c.id)).toContain(courier.id);

    const order = await productionOrder(env.s);
    const withOrder = await st.next((e) => e.data.orders.some((o: any) => o.id === order));
    const shown = withOrder.data.orders.find((o: any) => o.id === order);
    expect(shown.position).toEqual(PICKUP);

    const couriers = new CouriersService(env.p.app.platform.db, () => env.clock.now);
    env.clock.now += 1000;
    await couriers.reportPosition(courier.id, {
      lat: 5.6,
      lng: -0.2,
      at: new Date(env.clock.now),
    });
    const moved = await st.next((e) =>
      e.data.couriers.some((c: any) => c.id === courier.id && c.position?.lat === 5.6),
    );
    const mine = moved.data.couriers.find((c: any) => c.id === courier.id);
    expect(mine).toMatchObject({ name: courier.name, vehicle: 'motorbike' });
    expect(Date.parse(mine.position_at)).toBe(env.clock.now);
  });

  it('tells the orders board when an order is placed', async () => {
    const { web } = await env.signedIn(['support']);
    const st = await stream(web, 'orders');
    const first = await st.next(() => true);
    await productionOrder(env.s);
    const next = await st.next((e) => e.id !== first.id);
    expect(next).toMatchObject({ event: 'board', data: { board: 'orders' } });
  });

  it('resumes from Last-Event-ID, and sends the full snapshot for a malformed or huge one (never a 5xx)', async () => {
    const { web } = await env.signedIn(['support']);
    const first = await stream(web, 'dispatch');
    const now = await first.next(() => true);
    first.close();
    // The page already has the current snapshot: nothing is sent until something changes.
    const resumed = await stream(web, 'dispatch', { 'last-event-id': now.id! });
    const order = await productionOrder(env.s);
    const sent = await resumed.next(() => true);
    expect(sent.id).not.toBe(now.id);
    expect(sent.data.orders.some((o: any) => o.id === order)).toBe(true);
    resumed.close();
    for (const bad of [
      '../../etc/passwd',
      'x'.repeat(8000),
      '\u00e9t\u00e9',
      '',
      now.id!.repeat(4),
    ]) {
      const st = await stream(web, 'dispatch', { 'last-event-id': bad });
      expect(st.status).toBe(200);
      expect((await st.next(() => true)).data.orders.some((o: any) => o.id === order)).toBe(true);
      st.close();
    }
    const tooBig = await openStream(web, '/console/events/dispatch', {
      'last-event-id': 'y'.repeat(40_000),
    });
    expect(tooBig.status).toBeGreaterThanOrEqual(400);
    expect(tooBig.status).toBeLessThan(500);
  });

  it(`holds at most ${STREAMS_PER_SESSION} streams per session; another session has its own`, async () => {
    const { web } = await env.signedIn(['admin']);
    const streams = [];
    for (let i = 0; i < STREAMS_PER_SESSION; i++) {
      const st = await stream(web, i % 2 ? 'orders' : 'dispatch');
      await st.next(() => true);
      streams.push(st);
    }
    const extra = await stream(web, 'payouts');
    expect(extra.status).toBe(429);
    expect((await stream((await env.signedIn(['admin'])).web, 'payouts')).status).toBe(200);
    streams[0]!.close();
    // The closed one frees its place once the server has seen it go.
    await expect
      .poll(async () => {
        const again = await openStream(web, '/console/events/dispatch');
        again.close();
        return again.status;
      })
      .toBe(200);
  });
});

describe("the console boards' live channel after a LISTEN that failed", () => {
  const env = useConsoleWithPartner();

  it('listens again when the next board is opened, and that board wakes on a change', async () => {
    const db = env.p.app.platform.db;
    const listen = db.listen;
    let asked = 0;
    // The database unreachable for the first LISTEN on dispatch's channel, reachable after.
    db.listen = (channel, onNotify) =>
      channel === DISPATCH_CHANNEL && asked++ === 0
        ? Promise.reject(new Error('connect ECONNREFUSED'))
        : listen.call(db, channel, onNotify);
    try {
      const { web } = await env.signedIn(['support']);
      const failed = await openStream(web, '/console/events/orders');
      failed.close();
      expect(failed.status).toBe(500);
      const st = await openStream(web, '/console/events/orders');
      try {
        expect(st.status).toBe(200);
        const first = await st.next(() => true);
        await productionOrder(env.s);
        expect(await st.next((e) => e.id !== first.id)).toMatchObject({
          event: 'board',
          data: { board: 'orders' },
        });
      } finally {
        st.close();
      }
      expect(asked).toBe(2);
    } finally {
      db.listen = listen;
    }
  });
});

describe.runIf(onPostgres)('the console live channel across two instances (PostgreSQL)', () => {
  // Operator codes come from the servers' clock, moved one TOTP step at a time.
  const clock = { now: Date.now() };
  const two = useTwoInstances({ clock: () => clock.now });

  it('carries an order placed through one instance to a dispatch stream open on the other', async () => {
    const { a, b } = two;
    const s = await createPartner(a, { environment: 'production' });
    const { web } = await signedInOperator(b, ['support'], () => (clock.now += TOTP_STEP_MS));
    const st = await openStream(web, '/console/events/dispatch');
    try {
      expect(st.status).toBe(200);
      await st.next((e) => e.event === 'dispatch');
      const placed = Date.now();
      const order = await productionOrder(s);
      await st.next((e) => e.data.orders.some((o: any) => o.id === order), 2000);
      console.info(`order on the other instance's dispatch stream after ${Date.now() - placed} ms`);
    } finally {
      st.close();
    }
  });
});
