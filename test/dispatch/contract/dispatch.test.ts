import { PartnerClient } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DispatchModule, REOFFER_AFTER_MS } from '../../../src/modules/dispatch/index.ts';
import {
  ADMIN_TOKEN,
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { Scrape } from '../../helpers/prometheus.ts';
import { operatorWithToken } from '../../operators/helpers.ts';
import { allOffDuty, codeOf, courierNear, offeredTo, PICKUP, productionOrder } from '../helpers.ts';

let p: TestPlatform;
let s: PartnerSetup;
let dispatch: DispatchModule;
let now = Date.now();
beforeAll(async () => {
  // Single offers: these orders share one pickup and would ride in multi-drop batches
  // (multi-drop.test.ts covers those).
  p = await startPlatform({
    socket: false,
    clock: () => now,
    env: { DISPATCH_BATCH_MAX_STOPS: '1' },
  });
  const made = await createPartner(p, { environment: 'production' });
  // Signed on the server's clock: tests move it past the 5-minute signature window.
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

const order = (id: string) =>
  s.client
    .send<any>('POST', '/api/v1/delivery/orders.get', { body: { order_id: id } })
    .then((r) => r.body.data);
const track = (id: string) =>
  s.client
    .send<any>('POST', '/api/v1/delivery/orders.track', { body: { order_id: id } })
    .then((r) => r.body.data);
const events = async (id: string): Promise<{ type: string; status: string }[]> =>
  (await eventsAbout(p, id))
    .sort((a, b) => a.sequence - b.sequence)
    .map((e) => ({ type: e.type, status: (e.payload as any).data?.status ?? null }));

/** Leaves earlier tests' jobs and couriers out of the way: open jobs are cancelled, couriers off duty. */
async function clearBoard(): Promise<void> {
  await allOffDuty(p);
  for (const e of (await p.admin('GET', '/dispatch/board')).body.data)
    await p.admin('POST', `/delivery/orders/${e.order_id}/status`, { status: 'cancelled' });
}

/** A clear board, free couriers at these distances (km) from the pickup, and a new production order offered once. */
async function jobNear<const K extends readonly number[]>(
  kms: K,
): Promise<{ couriers: { [I in keyof K]: Courier }; id: string }> {
  await clearBoard();
  const couriers: Courier[] = [];
  for (const km of kms) couriers.push(await courierNear(p, km, now));
  const id = await productionOrder(s);
  await dispatch.offers.tick();
  return { couriers: couriers as { [I in keyof K]: Courier }, id };
}
type Courier = Awaited<ReturnType<typeof courierNear>>;

describe('offers', () => {
  it('offers a new production order to the nearest free courier in its zone, and a job runs to delivered', async () => {
    await clearBoard();
    const far = await courierNear(p, 4, now);
    const near = await courierNear(p, 1, now);
    await courierNear(p, 0.2, now, { zones: ['ashanti'] });
    const id = await productionOrder(s);
    await dispatch.offers.tick();
    expect(await offeredTo(p, id)).toBe(near.id);
    expect(far.id).not.toBe(near.id);

    const svc = dispatch.service;
    expect(await svc.accept(near.id, id)).toEqual({
      order_id: id,
      action: 'accept',
      stage: 'accepted',
      status: 'accepted',
    });
    expect((await svc.arrivedAtPickup(near.id, id)).stage).toBe('at_pickup');
    expect((await svc.pickedUp(near.id, id)).status).toBe('in_transit');
    expect((await svc.arrived(near.id, id)).stage).toBe('at_dropoff');
    // Proof first: the delivery code (its text went to the recipient at accept; a fresh one stands in here).
    const { code } = await p.app.platform.proofs.issueCode(id, { rotate: true });
    await p.app.platform.proofs.verifyCode(id, code!, near.id);
    expect(await svc.delivered(near.id, id)).toMatchObject({
      stage: 'delivered',
      status: 'delivered',
    });

    expect((await order(id)).status).toBe('delivered');
    expect(
      (await track(id)).timeline.filter((t: any) => t.completed).map((t: any) => t.status),
    ).toEqual(['placed', 'accepted', 'pickedUp', 'in_transit', 'delivered']);
    expect((await events(id)).map((e) => e.status)).toEqual([
      'placed',
      'accepted',
      'pickedUp',
      'in_transit',
      'delivered',
    ]);
    expect(
      (await p.admin('GET', '/dispatch/board')).body.data.find((e: any) => e.order_id === id),
    ).toBeUndefined();
  });

  it('offers only couriers holding no job (the app shows the job in hand), and leaves staging orders to the sandbox courier', async () => {
    await clearBoard();
    const busy = await courierNear(p, 0.1, now);
    const free = await courierNear(p, 2, now);
    const first = await productionOrder(s);
    await dispatch.offers.tick();
    expect(await offeredTo(p, first)).toBe(busy.id);
    await dispatch.service.accept(busy.id, first);
    const second = await productionOrder(s);
    await dispatch.offers.tick();
    expect(await offeredTo(p, second)).toBe(free.id);
    await dispatch.service.accept(free.id, second);
    const third = await productionOrder(s);
    await dispatch.offers.tick();
    const offersOf = (id: string) =>
      countRows(p, 'select count(*)::int as n from dispatch_offers where order_id = $1', [id]);
    // Both hold a job: nobody is offered the third until one of them is free again.
    expect(await offersOf(third)).toBe(0);
    await p.admin('POST', `/delivery/orders/${first}/status`, { status: 'cancelled' });
    await dispatch.offers.tick();
    expect(await offeredTo(p, third)).toBe(busy.id);

    const staging = await createPartner(p);
    const res = await staging.client.send<any>('POST', '/api/v1/delivery/orders.create', {
      body: (await import('../../delivery/fixtures.ts')).orderBody(),
    });
    const stagingId = res.body.data.order_details.order_id;
    await dispatch.offers.tick();
    // The staging job waits for the sandbox courier: the dispatcher never offers it to the free courier.
    expect(
      await p.app.platform.db.query(
        'select environment, state from dispatch_jobs where order_id = $1',
        [stagingId],
      ),
    ).toEqual([{ environment: 'staging', state: 'waiting' }]);
    expect(
      await countRows(p, 'select count(*)::int as n from dispatch_offers where order_id = $1', [
        stagingId,
      ]),
    ).toBe(0);
  });

  it('offers nobody a second job while their offer is open, in the same round or a later one', async () => {
    await clearBoard();
    const near = await courierNear(p, 0.1, now);
    const far = await courierNear(p, 3, now);
    const [one, two] = [await productionOrder(s), await productionOrder(s)];
    await dispatch.offers.tick();
    // One round, two jobs: the nearest courier gets the first, the other courier the second.
    expect([await offeredTo(p, one), await offeredTo(p, two)]).toEqual([near.id, far.id]);
    const three = await productionOrder(s);
    await dispatch.offers.tick();
    expect(
      await countRows(p, 'select count(*)::int as n from dispatch_offers where order_id = $1', [
        three,
      ]),
    ).toBe(0);
    // A declined offer frees its courier for the next job.
    await dispatch.service.decline(near.id, one);
    await dispatch.offers.tick();
    expect(await offeredTo(p, three)).toBe(near.id);
  });

  it('reads a few statements a round, not a search per job, while no courier is free', async () => {
    await clearBoard();
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await productionOrder(s));
    const db = p.app.platform.db;
    let statements = 0;
    const query = db.query.bind(db);
    db.query = ((sql: string, params?: readonly unknown[]) => {
      statements++;
      return query(sql, params);
    }) as typeof db.query;
    try {
      expect((await dispatch.offers.tick()).offered).toBe(0);
    } finally {
      db.query = query;
    }
    // The late marks, the waiting jobs, who is busy and whether anyone is free.
    expect(statements).toBeLessThanOrEqual(5);
    const courier = await courierNear(p, 1, now);
    expect((await dispatch.offers.tick()).offered).toBe(1);
    expect(await offeredTo(p, ids[0]!)).toBe(courier.id);
  });

  it('finds the nearest among many through the box around the pickup, and a courier outside the box when the box has too few', async () => {
    await clearBoard();
    for (let i = 0; i < 22; i++) await courierNear(p, 0.2 + i * 0.1, now);
    const nearest = await courierNear(p, 0.05, now);
    const id = await productionOrder(s);
    await dispatch.offers.tick();
    expect(await offeredTo(p, id)).toBe(nearest.id);

    await clearBoard();
    const far = await courierNear(p, 60, now);
    const lone = await productionOrder(s);
    await dispatch.offers.tick();
    expect(await offeredTo(p, lone)).toBe(far.id);
  });

  it('moves a declined offer to the next courier and never back to the one who declined', async () => {
    const {
      couriers: [a, b],
      id,
    } = await jobNear([0.5, 1.5]);
    expect(await offeredTo(p, id)).toBe(a.id);
    expect((await dispatch.service.decline(a.id, id)).stage).toBeNull();
    expect(await offeredTo(p, id)).toBe(b.id);
    await dispatch.service.decline(b.id, id);
    await dispatch.offers.tick();
    expect(await offeredTo(p, id)).toBeNull();
    expect(await codeOf(dispatch.service.accept(a.id, id))).toBe('OFFER_NOT_OPEN');
    // A decline is final for that courier, however long the job waits.
    now += REOFFER_AFTER_MS + 60_000;
    await p.app.platform.couriers.reportPosition(a.id, { ...PICKUP, at: new Date(now) });
    await dispatch.offers.tick();
    expect(await offeredTo(p, id)).toBeNull();
  });

  it('offers a job again to a courier who let it expire, once the pause is over', async () => {
    const {
      couriers: [a],
      id,
    } = await jobNear([0.5]);
    expect(await offeredTo(p, id)).toBe(a.id);
    now += 46_000;
    await dispatch.offers.tick();
    expect(await offeredTo(p, id)).toBeNull();
    now += REOFFER_AFTER_MS - 60_000;
    await dispatch.offers.tick();
    expect(await offeredTo(p, id)).toBeNull();
    now += 60_000;
    await dispatch.offers.tick();
    expect(await offeredTo(p, id)).toBe(a.id);
    expect((await dispatch.service.accept(a.id, id)).status).toBe('accepted');
    expect(
      await countRows(p, 'select count(*)::int as n from dispatch_offers where order_id = $1', [
        id,
      ]),
    ).toBe(2);
  });

  it('moves an offer not accepted in time to the next courier', async () => {
    const {
      couriers: [a, b],
      id,
    } = await jobNear([0.5, 1.5]);
    expect(await offeredTo(p, id)).toBe(a.id);
    now += 30_000;
    await dispatch.offers.tick();
    expect(await offeredTo(p, id)).toBe(a.id);
    now += 16_000;
    expect(await codeOf(dispatch.service.accept(a.id, id))).toBe('OFFER_NOT_OPEN');
    await dispatch.offers.tick();
    expect(await offeredTo(p, id)).toBe(b.id);
    expect((await dispatch.service.accept(b.id, id)).status).toBe('accepted');
  });
});

describe('one job, one courier', () => {
  it('lets exactly one of 20 concurrent accepts win; the others are told it is taken', async () => {
    await clearBoard();
    const couriers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => courierNear(p, 0.3 + i, now)),
    );
    const id = await productionOrder(s);
    await dispatch.offers.tick();
    const holder = (await offeredTo(p, id))!;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        codeOf(dispatch.service.accept(i % 2 ? holder : couriers[i % 5]!.id, id)),
      ),
    );
    expect(results.filter((r) => r === 'OK')).toHaveLength(1);
    expect(
      results.filter((r) => r !== 'OK').every((r) => r === 'JOB_TAKEN' || r === 'OFFER_NOT_OPEN'),
    ).toBe(true);
    expect(results.filter((r) => r === 'JOB_TAKEN').length).toBeGreaterThan(0);
    expect(
      await countRows(
        p,
        'select count(*)::int as n from dispatch_assignments where order_id = $1',
        [id],
      ),
    ).toBe(1);
    expect((await events(id)).filter((e) => e.status === 'accepted')).toHaveLength(1);
  });

  // The courier app's replays (one action id sent again) are answered by couriers' action record:
  // test/couriers/contract/one-action-record.test.ts. Dispatch itself moves a job a step once.
  it('applies a step once: the same step again, or twice at once, is refused by the job stage', async () => {
    const {
      couriers: [c],
      id,
    } = await jobNear([0.5]);
    await dispatch.service.accept(c.id, id);
    expect(await dispatch.service.pickedUp(c.id, id)).toEqual({
      order_id: id,
      action: 'picked_up',
      stage: 'picked_up',
      status: 'in_transit',
    });
    const again = await Promise.all([
      codeOf(dispatch.service.pickedUp(c.id, id)),
      codeOf(dispatch.service.pickedUp(c.id, id)),
    ]);
    expect(again).toEqual(['INVALID_TRANSITION', 'INVALID_TRANSITION']);
    expect((await events(id)).map((e) => e.status)).toEqual([
      'placed',
      'accepted',
      'pickedUp',
      'in_transit',
    ]);
  });

  it('refuses a courier who does not hold the job, and bad reasons', async () => {
    const {
      couriers: [holder, other],
      id,
    } = await jobNear([0.5, 3]);
    await dispatch.service.accept(holder.id, id);
    const refused = await Promise.all(
      [
        dispatch.service.arrivedAtPickup(other.id, id),
        dispatch.service.pickedUp(other.id, id),
        dispatch.service.couldNotDeliver(other.id, id, 'recipient_absent'),
      ].map(codeOf),
    );
    expect(refused).toEqual(['NOT_YOUR_JOB', 'NOT_YOUR_JOB', 'NOT_YOUR_JOB']);
    expect(await codeOf(dispatch.service.accept(other.id, id))).toBe('JOB_TAKEN');
    expect(
      await codeOf(dispatch.service.couldNotDeliver(holder.id, id, 'refused', 'gone\u0007')),
    ).toBe('VALIDATION_ERROR');
    expect((await order(id)).status).toBe('accepted');
    // Before the goods left the pickup, could-not-deliver fails the order, with its reason.
    expect(
      await dispatch.service.couldNotDeliver(holder.id, id, 'wrong_address', 'No such street'),
    ).toMatchObject({ stage: 'failed', status: 'failed' });
    expect((await p.app.platform.delivery!.orders.history(id)).at(-1)).toMatchObject({
      status: 'failed',
      note: 'No such street',
    });
    expect(await order(id)).toMatchObject({
      failure: { reason: 'wrong_address', note: 'No such street' },
    });
  });
});

describe('operators', () => {
  it('assign and reassign by hand (audited); the old courier can no longer act, the new one carries on', async () => {
    const {
      couriers: [a, b],
      id,
    } = await jobNear([0.5, 5]);
    const assigned = await p.admin('POST', `/dispatch/orders/${id}/assign`, { courier_id: b.id });
    expect(assigned.body).toEqual({
      order_id: id,
      courier_id: b.id,
      previous_courier_id: null,
      stage: 'accepted',
      status: 'accepted',
    });
    expect(await codeOf(dispatch.service.accept(a.id, id))).toBe('JOB_TAKEN');
    await dispatch.service.pickedUp(b.id, id);
    const re = await p.admin('POST', `/dispatch/orders/${id}/assign`, { courier_id: a.id });
    expect(re.body).toMatchObject({
      previous_courier_id: b.id,
      courier_id: a.id,
      stage: 'picked_up',
      status: 'in_transit',
    });
    expect(await codeOf(dispatch.service.delivered(b.id, id))).toBe('NOT_YOUR_JOB');
    expect(await codeOf(dispatch.service.delivered(a.id, id))).toBe('VALIDATION_ERROR');
    const { code } = await p.app.platform.proofs.issueCode(id, { rotate: true });
    await p.app.platform.proofs.verifyCode(id, code!, a.id);
    expect((await dispatch.service.delivered(a.id, id)).status).toBe('delivered');
    const audit = await p.admin('GET', `/audit?action=dispatch_order.assign&limit=10`);
    expect(audit.body.entries.length).toBeGreaterThanOrEqual(2);

    const again = await p.admin('POST', `/dispatch/orders/${id}/assign`, { courier_id: b.id });
    expect([again.status, again.body.code]).toEqual([409, 'INVALID_TRANSITION']);
    expect(
      (await p.admin('POST', `/dispatch/orders/dlv_nope/assign`, { courier_id: a.id })).body.code,
    ).toBe('ORDER_NOT_FOUND');
    expect(
      (await p.admin('POST', `/dispatch/orders/${id}/assign`, { courier_id: 'cou_nope' })).body
        .code,
    ).toBe('COURIER_NOT_FOUND');
    expect(
      (await p.admin('POST', `/dispatch/orders/${id}/assign`, { courier_id: 'a\u0000b' })).status,
    ).toBe(400);
  });

  it('with expected_courier_id, assign only while that courier (or nobody, for null) holds the order', async () => {
    const {
      couriers: [a, b],
      id,
    } = await jobNear([0.5, 5]);
    const assign = (body: object) => p.admin('POST', `/dispatch/orders/${id}/assign`, body);
    expect((await assign({ courier_id: a.id, expected_courier_id: null })).status).toBe(200);
    // Still believing nobody has it, or that b has it: refused, and a keeps it.
    for (const expected of [null, b.id]) {
      const stale = await assign({ courier_id: b.id, expected_courier_id: expected });
      expect([stale.status, stale.body.code]).toEqual([409, 'ASSIGNMENT_CHANGED']);
      expect(stale.body.message).toContain(`now held by courier ${a.id}`);
    }
    expect((await dispatch.service.pickedUp(a.id, id)).status).toBe('in_transit');
    expect((await assign({ courier_id: b.id, expected_courier_id: a.id })).body).toMatchObject({
      previous_courier_id: a.id,
      courier_id: b.id,
    });
    for (const bad of ['', 'a\u0000b', 7]) {
      const r = await assign({ courier_id: a.id, expected_courier_id: bad });
      expect([r.status, r.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
  });

  it('finance reads the board and cannot assign', async () => {
    const {
      couriers: [, b],
      id,
    } = await jobNear([0.5, 5]);
    const finance = await operatorWithToken(p, ['finance']);
    expect(
      (await p.admin('POST', `/dispatch/orders/${id}/assign`, { courier_id: b.id }, finance.token))
        .status,
    ).toBe(403);
    expect((await p.admin('GET', '/dispatch/board', undefined, finance.token)).status).toBe(200);
  });

  it('an operator cancel ends the assignment and the offers; the courier can no longer act', async () => {
    const {
      couriers: [c],
      id,
    } = await jobNear([0.5]);
    await dispatch.service.accept(c.id, id);
    expect(
      (await p.admin('POST', `/delivery/orders/${id}/status`, { status: 'cancelled' })).status,
    ).toBe(200);
    expect(await codeOf(dispatch.service.pickedUp(c.id, id))).toBe('NOT_YOUR_JOB');
    expect(
      await countRows(
        p,
        `select count(*)::int as n from dispatch_assignments where order_id = $1 and end_reason = 'cancelled'`,
        [id],
      ),
    ).toBe(1);
    const offered = await productionOrder(s);
    await dispatch.offers.tick();
    expect(
      (await p.admin('POST', `/delivery/orders/${offered}/status`, { status: 'accepted' })).status,
    ).toBe(200);
    expect(
      await countRows(
        p,
        `select count(*)::int as n from dispatch_offers where order_id = $1 and state = 'withdrawn'`,
        [offered],
      ),
    ).toBe(1);
    expect((await p.admin('GET', '/dispatch/board')).body.data).toEqual([]);
  });

  it('raises the unaccepted gauge and shows the order late once nobody took it in time', async () => {
    await clearBoard();
    const scrape = async () => {
      const res = await p.fetch(`${p.url}/metrics`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      return (await Scrape.parse(await res.text())).series('dispatch_unaccepted_orders')[0]?.value;
    };
    const id = await productionOrder(s);
    await dispatch.offers.tick();
    expect(await scrape()).toBe(0);
    now += 11 * 60_000;
    expect((await dispatch.offers.tick()).late).toEqual([id]);
    expect(await scrape()).toBe(1);
    expect((await p.admin('GET', '/dispatch/board')).body.data).toEqual([
      expect.objectContaining({ order_id: id, column: 'late' }),
    ]);
    const c = await courierNear(p, 1, now);
    await dispatch.offers.tick();
    expect(await offeredTo(p, id)).toBe(c.id);
    await dispatch.service.accept(c.id, id);
    expect(await scrape()).toBe(0);
  });
});
