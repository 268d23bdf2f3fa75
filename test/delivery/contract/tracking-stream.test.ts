import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAMS_PER_LINK } from '../../../src/modules/delivery/tracking/live.ts';
import { courierNear, PICKUP, productionOrder } from '../../dispatch/helpers.ts';
import {
  createPartner,
  onPostgres,
  startPlatform,
  useTwoInstances,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { openStream, type SseStream } from '../../helpers/sse.ts';
import type { WebClient } from '../../helpers/web.ts';

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform();
  s = await createPartner(p, { environment: 'production' });
});
afterAll(() => p?.close());

const anonymous = () => ({ base: p.url, cookies: new Map() }) as unknown as WebClient;
const open = (path: string, headers?: Record<string, string>) =>
  openStream(anonymous(), path, headers);

async function trackingPath(id: string): Promise<string> {
  const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.get', {
    body: { order_id: id },
  });
  return new URL(res.body.data.tracking_url).pathname;
}

describe('the tracking page event stream', () => {
  it('pushes each status, the courier by first name and vehicle, and one ETA, then ends with the delivery', async () => {
    const id = await productionOrder(s);
    const path = await trackingPath(id);
    const stream = await open(`${path}/events`);
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
      const first = await stream.next((e) => e.event === 'state');
      expect(first.data).toMatchObject({
        status: 'placed',
        moving: true,
        courier: false,
        position: null,
        pickup: PICKUP,
      });
      // Before a courier carries the parcel, the promised time is the page's one ETA.
      expect(first.data.text.eta).toMatch(/^Expected by .* \(Accra time\)$/);

      const now = Date.now();
      const courier = await courierNear(p, 2, now);
      await p.app.platform.dispatch!.service.assign(id, courier.id);
      await p.app.platform.couriers.reportPosition(courier.id, {
        lat: PICKUP.lat + 0.01,
        lng: PICKUP.lng,
        at: new Date(now + 1000),
      });
      const carried = await stream.next((e) => e.data.courier === true);
      expect(carried.data.text.who).toBe(`${courier.name.split(' ')[0]}, on a motorbike`);
      expect(carried.data.position).toEqual({ lat: PICKUP.lat + 0.01, lng: PICKUP.lng });
      expect(carried.data.text.eta).toMatch(/^Expected by /);

      const svc = p.app.platform.dispatch!.service;
      await svc.arrivedAtPickup(courier.id, id);
      await svc.pickedUp(courier.id, id);
      await p.app.platform.couriers.reportPosition(courier.id, {
        lat: PICKUP.lat + 0.004,
        lng: PICKUP.lng + 0.01,
        at: new Date(now + 2000),
      });
      // On the way to the drop-off, the courier's live ETA replaces the promised time.
      const live = await stream.next((e) => e.data.position?.lng === PICKUP.lng + 0.01, 15_000);
      expect(live.data.text.eta).toMatch(/^Expected around .* \(Accra time\)$/);

      await svc.arrived(courier.id, id);
      const { code } = await p.app.platform.proofs.issueCode(id, { rotate: true });
      await p.app.platform.proofs.verifyCode(id, code!, courier.id);
      expect((await svc.delivered(courier.id, id)).status).toBe('delivered');
      const ended = await stream.next((e) => e.data.moving === false);
      expect(ended.data).toMatchObject({
        status: 'delivered',
        courier: false,
        position: null,
        pickup: null,
        dropoff: null,
      });
      const ids = stream.events.map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      stream.close();
    }
  });

  it('resumes from Last-Event-ID without repeating, and ignores a malformed or huge one', async () => {
    const path = await trackingPath(await productionOrder(s));
    const first = await open(`${path}/events`);
    const { id } = await first.next((e) => e.event === 'state');
    first.close();
    const streams: SseStream[] = [];
    try {
      const resumed = await open(`${path}/events`, { 'last-event-id': id! });
      streams.push(resumed);
      for (const junk of ['x'.repeat(5000), '../../etc', 'a\u0001b']) {
        const fresh = await open(`${path}/events`, { 'last-event-id': encodeURIComponent(junk) });
        streams.push(fresh);
        expect((await fresh.next((e) => e.event === 'state')).id).toBe(id);
      }
      // The resumed stream has what it showed: nothing is sent until something changes.
      await streams[streams.length - 1]!.next(() => true);
      expect(resumed.events).toEqual([]);
    } finally {
      for (const st of streams) st.close();
    }
  });

  it(`refuses a guessed or malformed link, and more than ${STREAMS_PER_LINK} streams on one link`, async () => {
    for (const bad of ['AAAAAAAAAAAAAAAAAAAAAAAA', 'bad', 'A'.repeat(2000)]) {
      const res = await p.fetch(`${p.url}/track/${bad}/events`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    // A NUL in the path is refused before any route, with the one error body.
    const nul = await p.fetch(`${p.url}/track/${'%00'.repeat(16)}/events`);
    expect(nul.status).toBe(400);
    expect((await nul.json()).code).toBeTruthy();
    const path = await trackingPath(await productionOrder(s));
    const streams: SseStream[] = [];
    try {
      for (let i = 0; i < STREAMS_PER_LINK; i++) streams.push(await open(`${path}/events`));
      for (const st of streams) expect(st.status).toBe(200);
      const refused = await p.fetch(`${p.url}${path}/events`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await refused.json()).toMatchObject({ code: 'TOO_MANY_STREAMS' });
      // A stream closed makes room again.
      streams.pop()!.close();
      await expect
        .poll(async () => {
          const again = await open(`${path}/events`);
          streams.push(again);
          return again.status;
        })
        .toBe(200);
    } finally {
      for (const st of streams) st.close();
    }
  });
});

describe.runIf(onPostgres)('the tracking stream across two instances (PostgreSQL)', () => {
  const two = useTwoInstances();

  it('carries a status changed through one instance to a page watching on the other', async () => {
    const { a, b } = two;
    const partner = await createPartner(a, { environment: 'production' });
    const id = await productionOrder(partner);
    const got = await partner.client.send<any>('POST', '/api/v1/delivery/orders.get', {
      body: { order_id: id },
    });
    const stream = await openStream(
      { base: b.url, cookies: new Map() } as unknown as WebClient,
      `${new URL(got.body.data.tracking_url).pathname}/events`,
    );
    try {
      await stream.next((e) => e.data.status === 'placed');
      const made = Date.now();
      const moved = await a.admin('POST', `/delivery/orders/${id}/status`, { status: 'accepted' });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      await stream.next((e) => e.data.status === 'accepted', 2000);
      console.info(`status on the other instance's tracking stream after ${Date.now() - made} ms`);
    } finally {
      stream.close();
    }
  });
});
