import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatchModule } from '../../../src/modules/dispatch/index.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { allTexts } from '../../helpers/outbox-read.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { allOffDuty, courierNear, offeredTo, PICKUP, productionOrder } from '../helpers.ts';

let p: TestPlatform;
let staging: PartnerSetup;
let production: PartnerSetup;
let dispatch: DispatchModule;
let now = Date.now();
beforeAll(async () => {
  p = await startPlatform({ socket: false, clock: () => now });
  staging = await createPartner(p);
  production = await createPartner(p, { environment: 'production' });
  dispatch = p.app.platform.dispatch!;
});
afterAll(() => p.close());

const q = <T = any>(sql: string, params: unknown[] = []) => p.app.platform.db.query<T>(sql, params);
const stagingOrder = async () =>
  (await staging.client.send<any>('POST', '/api/v1/delivery/orders.create', { body: orderBody() }))
    .body.data.order_details.order_id as string;
const status = async (id: string) =>
  (
    await staging.client.send<any>('POST', '/api/v1/delivery/orders.get', {
      body: { order_id: id },
    })
  ).body.data.status;
/** One step of the default 30 s schedule, then the sandbox courier's round. */
const step = () => {
  now += 31_000;
  return dispatch.sandbox.tick();
};

describe('the sandbox courier', () => {
  it('is one simulated courier record, never available nor assignable for production', async () => {
    const id = await dispatch.sandbox.courierId();
    expect(await dispatch.sandbox.courierId()).toBe(id);
    const { couriers } = p.app.platform;
    expect(await couriers.get(id)).toMatchObject({ simulated: true, phone: 'sandbox' });
    expect(await countRows(p, 'select count(*)::int as n from couriers where simulated')).toBe(1);
    // Even on duty at the pickup, it is no candidate and not on the operators' list of couriers to assign.
    await couriers.setDuty(id, true);
    await couriers.reportPosition(id, { ...PICKUP, at: new Date(now) });
    expect(
      (await couriers.available({ maxAgeMs: 60_000, limit: 50 })).map((c) => c.id),
    ).not.toContain(id);
    expect((await dispatch.service.assignable()).map((c) => c.id)).not.toContain(id);
    await couriers.setDuty(id, false);
  });

  it('is offered and holds a staging order, takes it through every stage one step at a time, with timeline, webhooks and the code as proof', async () => {
    const sim = await dispatch.sandbox.courierId();
    const texts = (await allTexts(p)).length;
    const id = await stagingOrder();
    expect(
      await q('select environment, state from dispatch_jobs where order_id = $1', [id]),
    ).toEqual([{ environment: 'staging', state: 'waiting' }]);

    const seen: Array<[string, string | null]> = [];
    for (let i = 0; i < 5; i++) {
      await step();
      const held = await q(
        'select stage from dispatch_assignments where order_id = $1 and ended_at is null',
        [id],
      );
      seen.push([await status(id), held[0]?.stage ?? null]);
    }
    expect(seen).toEqual([
      ['accepted', 'accepted'],
      ['pickedUp', 'picked_up'],
      ['in_transit', 'at_dropoff'],
      ['delivered', null],
      ['delivered', null],
    ]);
    expect(
      await q('select courier_id, state from dispatch_offers where order_id = $1', [id]),
    ).toEqual([{ courier_id: sim, state: 'accepted' }]);
    expect(
      await q(
        'select courier_id, source, stage, end_reason from dispatch_assignments where order_id = $1',
        [id],
      ),
    ).toEqual([{ courier_id: sim, source: 'offer', stage: 'delivered', end_reason: 'finished' }]);
    expect(await q('select state from dispatch_jobs where order_id = $1', [id])).toEqual([
      { state: 'closed' },
    ]);
    // The same actions a courier's phone sends, but no action records: the job's stage guards its steps.
    expect(await p.app.platform.courierActions.history(sim)).toEqual([]);
    const timeline = (
      await staging.client.send<any>('POST', '/api/v1/delivery/orders.track', {
        body: { order_id: id },
      })
    ).body.data.timeline;
    expect(timeline.filter((t: any) => t.completed).map((t: any) => t.status)).toEqual([
      'placed',
      'accepted',
      'pickedUp',
      'in_transit',
      'delivered',
    ]);
    const events = (await eventsAbout(p, id)).sort((a, b) => a.sequence - b.sequence);
    expect(
      events.map((e) => [e.type, e.sequence, (e.payload as any).data?.status ?? null]),
    ).toEqual([
      ['delivery.order.created', 1, 'placed'],
      ['delivery.order.status_changed', 2, 'accepted'],
      ['delivery.order.status_changed', 3, 'pickedUp'],
      ['delivery.order.status_changed', 4, 'in_transit'],
      ['delivery.order.status_changed', 5, 'delivered'],
    ]);
    // Proven by the real code check; nobody was texted, and no cash reached the books.
    expect(
      await q(`select kind, courier_id from delivery_proofs where order_id = $1`, [id]),
    ).toEqual([{ kind: 'code', courier_id: sim }]);
    expect((await allTexts(p)).length).toBe(texts);
    expect(
      await countRows(p, 'select count(*)::int as n from ledger_journals where subject_id = $1', [
        id,
      ]),
    ).toBe(0);
  });

  it('offers production orders to real couriers only, and staging orders to the sandbox courier only', async () => {
    await allOffDuty(p);
    const sim = await dispatch.sandbox.courierId();
    const real = await courierNear(p, 0.5, now);
    const prodId = await productionOrder(production);
    const stagingId = await stagingOrder();
    now += 31_000;
    await dispatch.offers.tick();
    expect(await offeredTo(p, prodId)).toBe(real.id);
    expect(
      await countRows(p, 'select count(*)::int as n from dispatch_offers where order_id = $1', [
        stagingId,
      ]),
    ).toBe(0);
    // The board is production's: staging jobs are not on it.
    expect(
      (await p.admin('GET', '/dispatch/board')).body.data.map((e: any) => e.order_id),
    ).not.toContain(stagingId);

    await dispatch.sandbox.tick();
    expect(
      (await q('select courier_id from dispatch_offers where order_id = $1', [stagingId])).map(
        (r) => r.courier_id,
      ),
    ).toEqual([sim]);
    expect(
      await countRows(
        p,
        'select count(*)::int as n from dispatch_offers where order_id = $1 and courier_id = $2',
        [prodId, sim],
      ),
    ).toBe(0);

    // Operators cannot cross them over by hand either.
    const wrong = await p.admin('POST', `/dispatch/orders/${stagingId}/assign`, {
      courier_id: real.id,
    });
    expect([wrong.status, wrong.body.code]).toEqual([409, 'INVALID_TRANSITION']);
    const wrongWay = await p.admin('POST', `/dispatch/orders/${prodId}/assign`, {
      courier_id: sim,
    });
    expect([wrongWay.status, wrongWay.body.code]).toEqual([409, 'INVALID_TRANSITION']);
    await p.admin('POST', `/delivery/orders/${prodId}/status`, { status: 'cancelled' });
  });

  it("keeps operators' status overrides: a move ahead is not repeated, a cancel ends the sandbox courier's job", async () => {
    now = Date.now(); // signed requests carry the real time: stay within the allowed clock skew
    const ahead = await stagingOrder();
    const cancelled = await stagingOrder();
    await step();
    expect(
      await p.admin('POST', `/delivery/orders/${ahead}/status`, { status: 'pickedUp' }),
    ).toMatchObject({ status: 200 });
    expect(
      await p.admin('POST', `/delivery/orders/${cancelled}/status`, { status: 'cancelled' }),
    ).toMatchObject({ status: 200 });
    for (let i = 0; i < 4; i++) await step();
    expect(await status(ahead)).toBe('delivered');
    const moves = (await eventsAbout(p, ahead)).sort((a, b) => a.sequence - b.sequence);
    expect(moves.map((m) => (m.payload as any).data?.status ?? null)).toEqual([
      'placed',
      'accepted',
      'pickedUp',
      'in_transit',
      'delivered',
    ]);
    expect(await status(cancelled)).toBe('cancelled');
    expect(await q('select state from dispatch_jobs where order_id = $1', [cancelled])).toEqual([
      { state: 'closed' },
    ]);
    expect(
      await countRows(
        p,
        'select count(*)::int as n from dispatch_assignments where order_id = $1 and ended_at is null',
        [cancelled],
      ),
    ).toBe(0);
  });
});
