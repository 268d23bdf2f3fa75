import { PartnerClient } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatchModule } from '../../../src/modules/dispatch/index.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import { expectDeliveredAt } from '../../delivery/delivered-at.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { legsAbout } from '../../helpers/ledger-read.ts';
import { orderFee } from '../../helpers/orders-read.ts';
import { adminCli, SLOW } from '../../cli/admin-cli.ts';
import { allOffDuty, codeOf, courierNear } from '../helpers.ts';

// Multi-drop batches through the platform: orders.create and create_bulk, dispatch's rounds (run by
// the test: DISPATCH_INTERVAL_MS=0), the couriers' actions and the operators' board and assignment.
let p: TestPlatform;
let s: PartnerSetup;
let dispatch: DispatchModule;
const now = Date.now();
beforeAll(async () => {
  p = await startPlatform({ clock: () => now });
  const made = await createPartner(p, { environment: 'production' });
  s = {
    ...made,
    client: new PartnerClient({
      apiKey: made.apiKey,
      signingSecret: made.signingSecret,
      baseUrl: p.url,
      now: () => now,
    }),
  };
  dispatch = p.app.platform.dispatch!;
});
afterAll(() => p.close());

/** Drop-offs east of the Makola pickup: Osu about 3 km, East Legon about 11 km. */
const OSU = { lat: 5.556, lng: -0.182 };
const EAST_LEGON = { lat: 5.635, lng: -0.161 };
const LABADI = { lat: 5.561, lng: -0.145 };

const body = (to: { lat: number; lng: number }, pickup?: { lat: number; lng: number }) => {
  const b = orderBody();
  b.delivery.coordinates = to;
  if (pickup) b.pickup.coordinates = pickup;
  return b;
};

async function place(to: { lat: number; lng: number }, pickup?: { lat: number; lng: number }) {
  const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
    body: body(to, pickup),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.order_details.order_id as string;
}

async function board(): Promise<any[]> {
  return (await p.admin('GET', '/dispatch/board')).body.data;
}
const line = async (id: string) => (await board()).find((e) => e.order_id === id);

async function clearBoard(): Promise<void> {
  await allOffDuty(p);
  for (const e of await board())
    await p.admin('POST', `/delivery/orders/${e.order_id}/status`, { status: 'cancelled' });
}

const statuses = async (id: string): Promise<string[]> =>
  (await eventsAbout(p, id))
    .sort((a, b) => a.sequence - b.sequence)
    .map((e) => (e.payload as any).data?.status ?? null);

async function deliver(courierId: string, id: string): Promise<void> {
  const svc = dispatch.service;
  await svc.arrived(courierId, id);
  const { code } = await p.app.platform.proofs.issueCode(id, { rotate: true });
  await p.app.platform.proofs.verifyCode(id, code!, courierId);
  expect((await svc.delivered(courierId, id)).status).toBe('delivered');
}

describe('multi-drop batches', () => {
  it('offers two orders from one pickup as one batch, drops in route order; accepted as one, each order keeps its own steps, events and cash', async () => {
    await clearBoard();
    const c = await courierNear(p, 1, now);
    const far = await place(EAST_LEGON);
    const near = await place(OSU);
    await dispatch.offers.tick();

    const [a, b] = [await line(near), await line(far)];
    expect(a).toMatchObject({ offered_to: c.id, stop: 1, column: 'offered' });
    expect(b).toMatchObject({ offered_to: c.id, stop: 2, batch_id: a.batch_id });
    expect(a.batch_id).toMatch(/^ofr_/);
    const offer = await dispatch.service.currentJob(c.id);
    expect(offer).toMatchObject({ kind: 'offer', order_id: near });
    expect(offer!.stops!.map((x) => x.order_id)).toEqual([near, far]);
    // The phone's push tells of the batch once.
    const pushed = (await dispatch.service.newestOpenOffers()).filter((o) => o.courier_id === c.id);
    expect(pushed.map((o) => o.drops)).toEqual([2]);

    // Accepting through either order accepts the batch: the courier holds both.
    expect((await dispatch.service.accept(c.id, far)).status).toBe('accepted');
    expect(await line(near)).toMatchObject({ courier_id: c.id, stage: 'accepted', stop: 1 });
    expect(await line(far)).toMatchObject({ courier_id: c.id, stage: 'accepted', stop: 2 });
    for (const id of [near, far]) {
      await dispatch.service.arrivedAtPickup(c.id, id);
      await dispatch.service.pickedUp(c.id, id);
    }
    expect(await dispatch.service.currentJob(c.id)).toMatchObject({
      kind: 'job',
      order_id: near,
      stage: 'picked_up',
    });
    await deliver(c.id, near);
    expect(await dispatch.service.currentJob(c.id)).toMatchObject({ order_id: far });
    await deliver(c.id, far);
    expect(await dispatch.service.currentJob(c.id)).toBeUndefined();

    for (const id of [near, far]) {
      expect(await expectDeliveredAt(p, id)).toBe(now);
      expect(await statuses(id)).toEqual([
        'placed',
        'accepted',
        'pickedUp',
        'in_transit',
        'delivered',
      ]);
      // Cash on delivery: each drop's fee collected and posted on its own.
      const legs = (await legsAbout(p, ['courier_cash_collected'], id))
        .filter((l) => l.account === `courier_cash:${c.id}`)
        .map(({ amount_pesewas }) => ({ amount_pesewas }));
      const fee = await orderFee(s, id);
      expect(legs).toEqual([{ amount_pesewas: -fee }]);
    }
  });

  it('offers orders from different pickups separately', async () => {
    await clearBoard();
    await courierNear(p, 1, now);
    await courierNear(p, 2, now);
    const one = await place(OSU);
    // About 1.5 km from Makola: another pickup.
    const two = await place(OSU, { lat: 5.5625, lng: -0.209 });
    await dispatch.offers.tick();
    const [a, b] = [await line(one), await line(two)];
    expect(a.offered_to).not.toBeNull();
    expect(b.offered_to).not.toBeNull();
    expect(a.offered_to).not.toBe(b.offered_to);
    expect([a.batch_id, b.batch_id]).toEqual([null, null]);
  });

  it("batches orders.create_bulk's orders from one pickup, at most DISPATCH_BATCH_MAX_STOPS (4) drops; the rest go apart", async () => {
    await clearBoard();
    await courierNear(p, 1, now);
    await courierNear(p, 3, now);
    const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create_bulk', {
      body: { orders: [OSU, LABADI, EAST_LEGON, OSU, LABADI].map((to) => body(to)) },
    });
    expect(res.status).toBe(200);
    const ids: string[] = res.body.results.map((r: any) => r.order_id);
    await dispatch.offers.tick();
    const lines = await Promise.all(ids.map(line));
    const batches = new Map<string | null, any[]>();
    for (const l of lines) batches.set(l.batch_id, [...(batches.get(l.batch_id) ?? []), l]);
    const [batch] = [...batches.values()].filter((b) => b.length > 1);
    expect(batch).toHaveLength(4);
    expect(batch!.map((l) => l.stop).sort()).toEqual([1, 2, 3, 4]);
    expect(new Set(batch!.map((l) => l.offered_to)).size).toBe(1);
    // Osu, the nearest, is the first drop.
    expect([ids[0], ids[3]]).toContain(batch!.find((l) => l.stop === 1)?.order_id);
    // The fifth goes alone to the other courier.
    const alone = lines.filter((l) => !batch!.includes(l));
    expect(alone).toHaveLength(1);
    expect(alone[0]).toMatchObject({ batch_id: null, stop: null });
    expect(alone[0].offered_to).not.toBe(batch![0].offered_to);
  });

  it(
    "partner-admin dispatch board names each job's batch and drop",
    async () => {
      await clearBoard();
      await courierNear(p, 1, now);
      const x = await place(OSU);
      const y = await place(LABADI);
      await dispatch.offers.tick();
      const batch = (await line(x)).batch_id as string;
      const run = await adminCli(p.url, ['dispatch', 'board']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^${x} .* ${batch} drop 1 `, 'm'));
      expect(run.stdout).toMatch(new RegExp(`^${y} .* ${batch} drop 2 `, 'm'));
    },
    SLOW,
  );

  it('declined as one, a batch waits again and goes, again as one, to the next courier', async () => {
    await clearBoard();
    const first = await courierNear(p, 1, now);
    const next = await courierNear(p, 2, now);
    const x = await place(OSU);
    const y = await place(LABADI);
    await dispatch.offers.tick();
    expect((await line(x)).offered_to).toBe(first.id);
    expect(await codeOf(dispatch.service.decline(next.id, x))).toBe('OFFER_NOT_OPEN');
    expect((await dispatch.service.decline(first.id, y)).stage).toBeNull();
    const [a, b] = [await line(x), await line(y)];
    expect([a.offered_to, b.offered_to]).toEqual([next.id, next.id]);
    expect(a.batch_id).not.toBeNull();
    expect(b.batch_id).toBe(a.batch_id);
    // The courier who declined is not offered them again.
    expect(await dispatch.service.currentJob(first.id)).toBeUndefined();
  });

  it('an operator reassigning one order of a batch makes it single; the courier keeps the rest', async () => {
    await clearBoard();
    const c = await courierNear(p, 1, now);
    const x = await place(OSU);
    const y = await place(LABADI);
    const z = await place(EAST_LEGON);
    await dispatch.offers.tick();
    // Out of the open offer: the courier is still offered the other two, as one batch.
    const other = await courierNear(p, 5, now);
    expect(
      (await p.admin('POST', `/dispatch/orders/${z}/assign`, { courier_id: other.id })).status,
    ).toBe(200);
    expect(await line(z)).toMatchObject({ courier_id: other.id, batch_id: null, stop: null });
    expect((await dispatch.service.currentJob(c.id))!.stops!.map((s) => s.order_id)).toEqual([
      x,
      y,
    ]);
    await dispatch.service.accept(c.id, x);
    // Out of the held batch: the courier keeps the other, and acts on it alone.
    expect(
      (await p.admin('POST', `/dispatch/orders/${x}/assign`, { courier_id: other.id })).status,
    ).toBe(200);
    expect(await line(x)).toMatchObject({ courier_id: other.id, batch_id: null });
    expect(await dispatch.service.currentJob(c.id)).toMatchObject({ kind: 'job', order_id: y });
    await dispatch.service.pickedUp(c.id, y);
    await deliver(c.id, y);
    expect(await statuses(y)).toEqual([
      'placed',
      'accepted',
      'pickedUp',
      'in_transit',
      'delivered',
    ]);
  });

  it('a drop that could not be delivered and goes out again comes after the others', async () => {
    await clearBoard();
    const c = await courierNear(p, 1, now);
    const x = await place(OSU);
    const y = await place(LABADI);
    await dispatch.offers.tick();
    await dispatch.service.accept(c.id, x);
    for (const id of [x, y]) await dispatch.service.pickedUp(c.id, id);
    await dispatch.service.arrived(c.id, x);
    expect((await dispatch.service.couldNotDeliver(c.id, x, 'recipient_absent')).stage).toBe(
      'picked_up',
    );
    const held = await dispatch.service.currentJob(c.id);
    expect(held).toMatchObject({ order_id: y });
    expect(held!.stops!.map((s) => s.order_id)).toEqual([y, x]);
  });
});
