import { PartnerClient } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatchModule } from '../../../src/modules/dispatch/index.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import { allOffDuty, courierNear, PICKUP } from '../helpers.ts';

// Monday 30 March 2026, 09:00 in Accra; the server, the signing client and the couriers share it.
let now = Date.parse('2026-03-30T09:00:00Z');
let p: TestPlatform;
let s: PartnerSetup;
let dispatch: DispatchModule;

beforeAll(async () => {
  p = await startPlatform({ socket: false, clock: () => now });
  const made = await createPartner(p, { environment: 'production' });
  s = {
    ...made,
    client: new PartnerClient({
      apiKey: made.apiKey,
      signingSecret: made.signingSecret,
      baseUrl: p.url,
      fetch: p.fetch,
      now: () => now,
    }),
  };
  dispatch = p.app.platform.dispatch!;
});
afterAll(() => p.close());

async function windowedOrder(deadline: string): Promise<string> {
  const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
    body: orderBody({ dropoff_deadline: deadline }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.order_details.order_id;
}

const lateEvents = async (id: string): Promise<{ data: any }[]> =>
  (await eventsAbout(p, id, 'delivery.order.late')).map((e) => ({
    data: (e.payload as any).data,
  }));
const boardLine = async (id: string) =>
  (await p.admin('GET', '/dispatch/board')).body.data.find((e: any) => e.order_id === id);

describe('delivery.order.late', () => {
  it('flags an order nobody took by its deadline less the travel time, with one event however many rounds', async () => {
    await allOffDuty(p);
    const id = await windowedOrder('2026-03-30T11:00:00Z');
    // The fixture's route (Makola to Oxford Street) is about 10 minutes by motorbike with the stop.
    now = Date.parse('2026-03-30T10:40:00Z');
    expect(await dispatch.windows.sweep()).not.toContain(id);
    expect(await lateEvents(id)).toHaveLength(0);

    now = Date.parse('2026-03-30T10:55:00Z');
    // Two instances' rounds at the same moment, then later rounds: one flag, one event.
    await Promise.all([dispatch.windows.sweep(), dispatch.windows.sweep()]);
    now += 60_000;
    await dispatch.windows.sweep();
    const events = await lateEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toEqual({
      order_id: id,
      order_reference: expect.any(String),
      status: 'placed',
      reason: 'no_courier',
      pickup_ready_at: null,
      dropoff_deadline: '2026-03-30T11:00:00.000Z',
      eta: null,
      timestamp: '2026-03-30T10:55:00.000Z',
    });
    expect(await boardLine(id)).toMatchObject({
      dropoff_deadline: '2026-03-30T11:00:00.000Z',
      window_missed_since: '2026-03-30T10:55:00.000Z',
    });
  });

  it("flags an order whose courier's ETA at the drop-off passes the deadline, once", async () => {
    now = Date.parse('2026-03-30T12:00:00Z');
    const id = await windowedOrder('2026-03-30T14:00:00Z');
    const courier = await courierNear(p, 1, now);
    await dispatch.service.assign(id, courier.id);
    const report = (lat: number) =>
      p.app.platform.couriers.reportPosition(courier.id, {
        lat,
        lng: PICKUP.lng,
        at: new Date(now),
      });

    // Near the pickup: there well before the deadline.
    await report(PICKUP.lat + 0.01);
    expect(await lateEvents(id)).toHaveLength(0);
    // 100 km away at 12:01: hours from the drop-off.
    now += 60_000;
    await report(PICKUP.lat + 0.9);
    now += 60_000;
    await report(PICKUP.lat + 0.95);
    const events = await lateEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ order_id: id, reason: 'eta_after_deadline' });
    expect(Date.parse(events[0]!.data.eta)).toBeGreaterThan(Date.parse('2026-03-30T14:00:00Z'));
    expect((await boardLine(id)).window_missed_since).toBe('2026-03-30T12:01:00.000Z');
  });

  it('never flags an order without a deadline', async () => {
    now = Date.parse('2026-03-30T15:00:00Z');
    const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
      body: orderBody(),
    });
    const id = res.body.data.order_details.order_id;
    now = Date.parse('2026-03-31T15:00:00Z');
    await dispatch.windows.sweep();
    expect(await lateEvents(id)).toHaveLength(0);
    expect((await boardLine(id)).window_missed_since).toBeNull();
  });
});
