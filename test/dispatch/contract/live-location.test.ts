import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { statements } from '../../helpers/statements.ts';
import { courierNear, PICKUP, productionOrder } from '../helpers.ts';

let p: TestPlatform;
let s: PartnerSetup;
let now = Date.now();
beforeAll(async () => {
  p = await startPlatform({ clock: () => now });
  s = await createPartner(p, { environment: 'production' });
});
afterAll(() => p.close());

const track = (id: string) =>
  s.client
    .send<any>('POST', '/api/v1/delivery/orders.track', { body: { order_id: id } })
    .then((r) => r.body.data);
const report = (courierId: string, lat: number) =>
  p.app.platform.couriers.reportPosition(courierId, { lat, lng: PICKUP.lng, at: new Date(now) });
const locationEvents = async (id: string): Promise<{ data: any }[]> =>
  (await eventsAbout(p, id, 'delivery.courier.location')).map((e) => ({
    data: (e.payload as any).data,
  }));
const trail = (id: string) =>
  countRows(p, 'select count(*)::int as n from dispatch_trail where order_id = $1', [id]);

async function trackingPage(id: string): Promise<string> {
  const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.get', {
    body: { order_id: id },
  });
  return (await fetch(p.url + new URL(res.body.data.tracking_url).pathname)).text();
}

/** A production order held by a fresh courier 2 km north of the pickup. */
async function onTheJob(): Promise<{ id: string; courierId: string }> {
  const courier = await courierNear(p, 2, now);
  const id = await productionOrder(s);
  await p.app.platform.dispatch!.service.assign(id, courier.id);
  return { id, courierId: courier.id };
}

describe('live location', () => {
  it('keeps the trail of a courier on a job and writes one location event per 20 seconds per order, however many reports', async () => {
    const { id, courierId } = await onTheJob();
    expect((await track(id)).courier).toBeUndefined();
    for (let i = 0; i < 5; i++) {
      now += 3_000;
      await report(courierId, PICKUP.lat + 0.01 - i * 0.001);
    }
    expect(await trail(id)).toBe(5);
    const first = await locationEvents(id);
    expect(first).toHaveLength(1);
    expect(first[0]!.data).toMatchObject({
      order_id: id,
      order_reference: expect.any(String),
      courier: { position: { lat: PICKUP.lat + 0.01, lng: PICKUP.lng } },
      next_stop: 'pickup',
      eta: expect.any(String),
      recorded_at: expect.any(String),
    });

    now += 20_000;
    await report(courierId, PICKUP.lat + 0.003);
    expect(await locationEvents(id)).toHaveLength(2);

    const { courier } = await track(id);
    expect(courier).toMatchObject({
      position: { lat: PICKUP.lat + 0.003, lng: PICKUP.lng },
      updated_at: new Date(now).toISOString(),
      next_stop: 'pickup',
    });
    // 0.33 km by motorbike plus the stop time: a few minutes from now.
    expect(Date.parse(courier.eta) - now).toBeGreaterThan(3 * 60_000);
    expect(Date.parse(courier.eta) - now).toBeLessThan(5 * 60_000);
    expect(await trackingPage(id)).toContain('Your courier is on the way to collect your parcel.');
  });

  it("orders.track reads the order, its timeline and its courier's job and position in one statement", async () => {
    const { id, courierId } = await onTheJob();
    now += 1_000;
    await report(courierId, PICKUP.lat + 0.002);
    const queries = vi.spyOn(p.app.platform.db, 'query');
    let tracked: any;
    let seen: string[];
    try {
      tracked = await track(id);
      // What track could read; the offer push round (dispatch_offers) may run meanwhile on its own.
      seen = statements(queries, /delivery_orders|dispatch_(trail|assignments|jobs)/);
    } finally {
      // Restoring also forgets the calls.
      queries.mockRestore();
    }
    expect(tracked.courier).toMatchObject({ position: { lat: PICKUP.lat + 0.002 } });
    expect(seen, seen.join('\n----\n')).toHaveLength(1);
    expect(seen[0]).toMatch(/dispatch_trail/);
  });

  it('keeps only the newest points of an order', async () => {
    const { id, courierId } = await onTheJob();
    for (let i = 0; i < 55; i++) {
      now += 1_000;
      await report(courierId, PICKUP.lat + i * 0.0001);
    }
    expect(await trail(id)).toBe(50);
    // The newest 50: the first five reports are gone.
    const [oldest] = await p.app.platform.db.query<{ lat: number }>(
      'select min(lat) as lat from dispatch_trail where order_id = $1',
      [id],
    );
    expect(oldest!.lat).toBeCloseTo(PICKUP.lat + 5 * 0.0001, 6);
  });

  it("writes a report's position and trail point without waiting for the flush, and nothing else that way", async () => {
    const { id, courierId } = await onTheJob();
    const events = (await locationEvents(id)).length;
    const queries = vi.spyOn(p.app.platform.db, 'query');
    let relaxed: string[];
    try {
      now += 21_000;
      await report(courierId, PICKUP.lat + 0.005);
      relaxed = statements(queries, /synchronous_commit/);
    } finally {
      queries.mockRestore();
    }
    expect(relaxed).toHaveLength(2);
    expect(relaxed[0]).toMatch(/update couriers set last_lat/);
    expect(relaxed[1]).toMatch(/insert into dispatch_trail/);
    // The report's location event still commits in its own transaction, flushed as always.
    expect(await locationEvents(id)).toHaveLength(events + 1);
  });

  it('costs a report inside the 20 seconds one trail statement, no transaction and no second read of the courier; the next event, its own', async () => {
    const { id, courierId } = await onTheJob();
    now += 1_000;
    await report(courierId, PICKUP.lat + 0.004);
    const db = p.app.platform.db;
    const queries = vi.spyOn(db, 'query');
    const transactions = vi.spyOn(db, 'transaction');
    try {
      now += 5_000;
      await report(courierId, PICKUP.lat + 0.0035);
      expect(statements(queries, /dispatch_trail/, (params) => params?.[0] === id)).toHaveLength(1);
      expect(transactions).not.toHaveBeenCalled();
      // The report's update answers the courier's name and vehicle; nothing reads them again.
      expect(statements(queries, /^\s*select[\s\S]*from couriers\b/i)).toEqual([]);
      now += 20_000;
      await report(courierId, PICKUP.lat + 0.003);
      expect(transactions).toHaveBeenCalledTimes(1);
    } finally {
      queries.mockRestore();
      transactions.mockRestore();
    }
    expect(await trail(id)).toBe(3);
    expect(await locationEvents(id)).toHaveLength(2);
  });

  it('heads for the drop-off once picked up, and shows nothing of the courier after delivery', async () => {
    const { id, courierId } = await onTheJob();
    const svc = p.app.platform.dispatch!.service;
    await svc.arrivedAtPickup(courierId, id);
    await svc.pickedUp(courierId, id);
    now += 1_000;
    await report(courierId, PICKUP.lat);
    expect((await track(id)).courier.next_stop).toBe('dropoff');
    expect(await trackingPage(id)).toContain('Your courier is on the way to you.');

    await svc.arrived(courierId, id);
    const { code } = await p.app.platform.proofs.issueCode(id, { rotate: true });
    await p.app.platform.proofs.verifyCode(id, code!, courierId);
    expect(await trail(id)).toBeGreaterThan(0);
    await svc.delivered(courierId, id);
    // The job's end takes its trail with it.
    expect(await trail(id)).toBe(0);
    now += 1_000;
    await report(courierId, PICKUP.lat + 0.001);
    const after = await track(id);
    expect(after.current_status).toBe('delivered');
    expect(after.courier).toBeUndefined();
    expect(await trackingPage(id)).not.toContain('Your courier');
    expect(await trail(id)).toBe(0);

    // The retention job deletes points past the retention of live jobs.
    const live = await onTheJob();
    now += 1_000;
    await report(live.courierId, PICKUP.lat);
    await p.app.platform.dispatch!.trail.prune();
    expect(await trail(live.id)).toBe(1);
    now += 25 * 3_600_000;
    await p.app.platform.dispatch!.trail.prune();
    expect(await trail(live.id)).toBe(0);
    // Back to the real time, for the signed requests of later tests.
    now = Date.now();
  });

  it("takes reports through the courier app's position action, and refuses bad input without keeping it", async () => {
    const { id, courierId } = await onTheJob();
    const actions = p.app.platform.courierActions;
    now += 1_000;
    expect(
      await actions.apply(courierId, {
        id: crypto.randomUUID(),
        kind: 'position',
        at: new Date(now),
        payload: { lat: PICKUP.lat, lng: PICKUP.lng },
      }),
    ).toMatchObject({ result: 'applied' });
    expect(await trail(id)).toBe(1);
    expect(
      await actions.apply(courierId, {
        id: crypto.randomUUID(),
        kind: 'position',
        at: new Date(now + 1),
        payload: { lat: 1e308, lng: PICKUP.lng },
      }),
    ).toMatchObject({ result: 'refused' });
    expect(
      await actions.apply(courierId, {
        id: crypto.randomUUID(),
        kind: 'position',
        at: new Date(now + 1),
        payload: { lat: 'x\u0000', lng: PICKUP.lng },
      }),
    ).toMatchObject({ result: 'refused' });
    expect(await trail(id)).toBe(1);
  });

  it("ignores positions of couriers without a job, at the cost of the report's one statement", async () => {
    const courier = await courierNear(p, 3, now);
    const all = () => countRows(p, 'select count(*)::int as n from dispatch_trail');
    const before = await all();
    const queries = vi.spyOn(p.app.platform.db, 'query');
    let ran: string[];
    try {
      now += 1_000;
      await report(courier.id, PICKUP.lat);
      // This courier's statements: a background round (the dispatcher, woken by other tests'
      // orders) may run a statement of its own meanwhile.
      ran = statements(queries, /./, (params) => params?.includes(courier.id) ?? false);
    } finally {
      queries.mockRestore();
    }
    // Whether the courier holds a job is asked inside the position's own update.
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatch(/update couriers set last_lat[\s\S]*dispatch_assignments/);
    expect(await all()).toBe(before);
    const moved = await p.app.platform.couriers.get(courier.id);
    expect(moved.last_lat).toBeCloseTo(PICKUP.lat, 6);
    expect(new Date(moved.last_position_at!).getTime()).toBe(now);
  });
});
