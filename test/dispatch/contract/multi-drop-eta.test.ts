import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travelMs } from '../../../src/modules/dispatch/domain/eta.ts';
import type { DispatchModule } from '../../../src/modules/dispatch/index.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { allOffDuty, courierNear, PICKUP } from '../helpers.ts';

// A batch's later drop: its ETA follows the route (courier → drop 1 → drop 2), in every read of
// it: orders.track, the tracking pages' reads, and the location event of a position report.
let p: TestPlatform;
let s: PartnerSetup;
let dispatch: DispatchModule;
let now = Date.now();
beforeAll(async () => {
  p = await startPlatform({ socket: false, clock: () => now });
  s = await createPartner(p, { environment: 'production' });
  dispatch = p.app.platform.dispatch!;
});
afterAll(() => p.close());

/** Drop-offs east of the Makola pickup: Osu about 3 km, East Legon about 11 km. */
const OSU = { lat: 5.556, lng: -0.182 };
const EAST_LEGON = { lat: 5.635, lng: -0.161 };

async function place(to: { lat: number; lng: number }): Promise<string> {
  const b = orderBody();
  b.delivery.coordinates = to;
  const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', { body: b });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.order_details.order_id;
}

const track = async (id: string) =>
  (await s.client.send<any>('POST', '/api/v1/delivery/orders.track', { body: { order_id: id } }))
    .body.data.courier;
const locationEta = async (id: string): Promise<string | undefined> =>
  ((await eventsAbout(p, id, 'delivery.courier.location')).at(-1)?.payload as any)?.data?.eta;

/** Every read's ETA of the order, as ms from now. */
async function etas(id: string): Promise<number[]> {
  const read = [
    (await track(id)).eta,
    (await dispatch.trail.forOrder(id))!.eta,
    (await dispatch.trail.forOrders([id])).get(id)!.eta,
    await locationEta(id),
  ];
  return read.map((eta) => Date.parse(eta!) - now);
}

describe('multi-drop ETA', () => {
  it("a later drop's ETA goes through the drops before it; once they are done, straight", async () => {
    await allOffDuty(p);
    const c = await courierNear(p, 1, now);
    const first = await place(OSU);
    const second = await place(EAST_LEGON);
    await dispatch.offers.tick();
    expect((await dispatch.service.currentJob(c.id))!.stops!.map((x) => x.order_id)).toEqual([
      first,
      second,
    ]);
    await dispatch.service.accept(c.id, first);
    for (const id of [first, second]) await dispatch.service.pickedUp(c.id, id);
    now += 1_000;
    await p.app.platform.couriers.reportPosition(c.id, { ...PICKUP, at: new Date(now) });

    const toFirst = travelMs(PICKUP, OSU, 'motorbike');
    expect(await etas(first)).toEqual([toFirst, toFirst, toFirst, toFirst]);
    const route = toFirst + travelMs(OSU, EAST_LEGON, 'motorbike');
    expect(await etas(second)).toEqual([route, route, route, route]);
    expect(route).toBeGreaterThan(travelMs(PICKUP, EAST_LEGON, 'motorbike'));

    // Drop 1 delivered: the courier goes straight on (a new report, 20 s on for its event).
    await dispatch.service.arrived(c.id, first);
    const { code } = await p.app.platform.proofs.issueCode(first, { rotate: true });
    await p.app.platform.proofs.verifyCode(first, code!, c.id);
    await dispatch.service.delivered(c.id, first);
    now += 20_000;
    await p.app.platform.couriers.reportPosition(c.id, { ...OSU, at: new Date(now) });
    const straight = travelMs(OSU, EAST_LEGON, 'motorbike');
    expect(await etas(second)).toEqual([straight, straight, straight, straight]);
  });
});
