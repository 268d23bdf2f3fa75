import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COURIER_JOBS_CHANNEL } from '../../../src/modules/dispatch/index.ts';
import { EARNINGS_CHANNEL } from '../../../src/modules/earnings/index.ts';
import { PAYOUTS_CHANNEL, RUNS_KEY } from '../../../src/modules/payouts/index.ts';
import { STREAMS_PER_SESSION } from '../../../src/web/courier/live.ts';
import { productionOrder } from '../../dispatch/helpers.ts';
import { signedInCourier } from '../../helpers/courier.ts';
import {
  createPartner,
  onPostgres,
  startPlatform,
  useTwoInstances,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { openStream, type SseStream } from '../../helpers/sse.ts';
import { WebClient } from '../../helpers/web.ts';

describe("the courier app's live channel (server-sent events)", () => {
  let p: TestPlatform;
  let s: PartnerSetup;
  const open: SseStream[] = [];
  beforeAll(async () => {
    p = await startPlatform();
    s = await createPartner(p, { environment: 'production' });
  });
  afterAll(async () => {
    for (const st of open) st.close();
    await p?.close();
  });
  const stream = async (web: WebClient, headers: Record<string, string> = {}) => {
    const st = await openStream(web, '/courier/events', headers);
    open.push(st);
    return st;
  };

  it('answers 401 without a courier session, to the stream and to its polling fallback', async () => {
    const anon = new WebClient(p);
    const st = await stream(anon);
    expect(st.status).toBe(401);
    expect((await anon.get('/courier/job')).status).toBe(401);
  });

  it("sends a courier their own offers only, never another courier's", async () => {
    const mine = await signedInCourier(p, 'Abena Stream');
    const theirs = await signedInCourier(p, 'Kwame Other');
    const st = await stream(mine.web);
    expect([st.status, st.contentType]).toEqual([200, 'text/event-stream; charset=utf-8']);
    await st.next((e) => e.event === 'job' && e.data.kind === 'none');

    const other = await productionOrder(s);
    expect(await p.app.platform.dispatch!.offers.offerTo(other, theirs.id)).toBe(true);
    const own = await productionOrder(s);
    expect(await p.app.platform.dispatch!.offers.offerTo(own, mine.id)).toBe(true);
    const offer = await st.next((e) => e.data.kind === 'offer');
    expect(offer.data).toMatchObject({
      kind: 'offer',
      order_id: own,
      item: 'Two pairs of sandals',
    });
    expect(Date.parse(offer.data.expires_at)).toBeGreaterThan(Date.now());
    expect(JSON.stringify(st.events)).not.toContain(other);
    const polled = await mine.web.get('/courier/job');
    expect(JSON.parse(polled.text)).toMatchObject({ kind: 'offer', order_id: own, id: offer.id });
  });

  it("sends the earnings screen's stream an event when the courier's own pay changes, not another's", async () => {
    expect((await openStream(new WebClient(p), '/courier/events/earnings')).status).toBe(401);
    const mine = await signedInCourier(p, 'Ama Earner');
    const theirs = await signedInCourier(p, 'Kofi Other');
    const st = await openStream(mine.web, '/courier/events/earnings');
    open.push(st);
    expect(st.status).toBe(200);
    const first = await st.next(() => true);
    expect(first).toMatchObject({ event: 'board', data: { board: 'earnings' } });
    const book = (courierId: string, orderId: string) =>
      p.app.platform.db.transaction((tx) =>
        p.app.platform.earnings.book(tx, {
          orderId,
          courierId,
          occasion: 'delivered',
          zone: null,
          vehicle: 'motorbike',
          roadKm: 2,
        }),
      );
    await book(theirs.id, `dlv_theirs_${theirs.id}`);
    await book(mine.id, `dlv_mine_${mine.id}`);
    await st.next((e) => e.id !== first.id);
    // Only the courier's own change was sent: the other's booking, first, sent nothing.
    expect(st.events.filter((e) => e.event === 'board')).toHaveLength(2);
  });

  it("names no courier for a pay run's own state, so no earnings screen reads again for it", async () => {
    // A run's start and end ring the payouts channel as RUNS_KEY; without a key, every open
    // earnings screen read its pay again (a courier's screen reads for its own key only).
    const heard: Array<readonly string[] | undefined> = [];
    const stop = await p.app.platform.db.listen(PAYOUTS_CHANNEL, (changed) => heard.push(changed));
    try {
      await p.app.platform.payouts.service.run('manual', 'opr_runner');
      await expect.poll(() => heard.flatMap((c) => c ?? ['(everyone)'])).toContain(RUNS_KEY);
      expect(heard).not.toContain(undefined);
    } finally {
      await stop();
    }
  });

  it('reads the screens of couriers named together a few at a time, not one after another', async () => {
    const couriers = await Promise.all(
      ['Esi One', 'Kwesi Two', 'Adjoa Three'].map((name) => signedInCourier(p, name)),
    );
    const streams = await Promise.all(couriers.map((c) => stream(c.web)));
    for (const st of streams) await st.next((e) => e.event === 'job');
    const dispatch = p.app.platform.dispatch!.service;
    const currentJob = dispatch.currentJob.bind(dispatch);
    let reading = 0;
    let most = 0;
    // Each read takes a while, so that the couriers named next are named while it runs.
    const reads = vi.spyOn(dispatch, 'currentJob').mockImplementation(async (courierId) => {
      most = Math.max(most, ++reading);
      await new Promise((r) => setTimeout(r, 50));
      reading--;
      return currentJob(courierId);
    });
    try {
      for (const c of couriers) p.app.platform.db.notify(COURIER_JOBS_CHANNEL, c.id);
      await expect.poll(() => reads.mock.calls.length).toBeGreaterThanOrEqual(couriers.length);
      expect(most).toBeGreaterThan(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('resumes from Last-Event-ID, and ignores a malformed or huge one (never a 5xx)', async () => {
    const c = await signedInCourier(p, 'Yaa Resume');
    const first = await stream(c.web);
    const none = await first.next((e) => e.data.kind === 'none');
    first.close();
    // The phone already has the current state: nothing is sent again until it changes.
    const resumed = await stream(c.web, { 'last-event-id': none.id! });
    const order = await productionOrder(s);
    await p.app.platform.dispatch!.offers.offerTo(order, c.id);
    expect((await resumed.next(() => true)).data).toMatchObject({ kind: 'offer', order_id: order });
    resumed.close();
    for (const bad of ['../../etc/passwd', 'x'.repeat(8000), '\u00e9t\u00e9', '']) {
      const st = await stream(c.web, { 'last-event-id': bad });
      expect(st.status).toBe(200);
      expect((await st.next(() => true)).data).toMatchObject({ kind: 'offer', order_id: order });
      st.close();
    }
    const tooBig = await openStream(c.web, '/courier/events', {
      'last-event-id': 'y'.repeat(40_000),
    });
    expect(tooBig.status).toBeGreaterThanOrEqual(400);
    expect(tooBig.status).toBeLessThan(500);
  });

  it(`holds at most ${STREAMS_PER_SESSION} streams per session`, async () => {
    const c = await signedInCourier(p, 'Esi Tabs');
    const streams = [];
    for (let i = 0; i < STREAMS_PER_SESSION; i++) {
      const st = await stream(c.web);
      await st.next(() => true);
      streams.push(st);
    }
    const extra = await stream(c.web);
    expect(extra.status).toBe(429);
    streams[0]!.close();
    // The closed one frees its place once the server has seen it go.
    await expect
      .poll(async () => {
        const again = await openStream(c.web, '/courier/events');
        again.close();
        return again.status;
      })
      .toBe(200);
  });
});

describe("the courier app's live channel after a LISTEN that failed", () => {
  let p: TestPlatform;
  let s: PartnerSetup;
  beforeAll(async () => {
    p = await startPlatform();
    s = await createPartner(p, { environment: 'production' });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('listens again when the next screen is opened, for jobs and for earnings, and wakes it', async () => {
    const db = p.app.platform.db;
    const listen = db.listen;
    const asked = new Map<string, number>();
    // The database unreachable for the first LISTEN on each screen's channel, reachable after.
    db.listen = (channel, onNotify) => {
      asked.set(channel, (asked.get(channel) ?? 0) + 1);
      return [COURIER_JOBS_CHANNEL, EARNINGS_CHANNEL].includes(channel) && asked.get(channel) === 1
        ? Promise.reject(new Error('connect ECONNREFUSED'))
        : listen.call(db, channel, onNotify);
    };
    const c = await signedInCourier(p, 'Akua Retry');
    const streams: SseStream[] = [];
    const stream = async (path: string, status: number) => {
      const st = await openStream(c.web, path);
      streams.push(st);
      expect(st.status).toBe(status);
      return st;
    };
    try {
      await stream('/courier/events', 500);
      const jobs = await stream('/courier/events', 200);
      await jobs.next((e) => e.data.kind === 'none');
      const order = await productionOrder(s);
      expect(await p.app.platform.dispatch!.offers.offerTo(order, c.id)).toBe(true);
      expect((await jobs.next((e) => e.data.kind === 'offer')).data.order_id).toBe(order);

      await stream('/courier/events/earnings', 500);
      const pay = await stream('/courier/events/earnings', 200);
      const first = await pay.next(() => true);
      await p.app.platform.db.transaction((tx) =>
        p.app.platform.earnings.book(tx, {
          orderId: order,
          courierId: c.id,
          occasion: 'delivered',
          zone: null,
          vehicle: 'motorbike',
          roadKm: 2,
        }),
      );
      await pay.next((e) => e.id !== first.id);
      expect([asked.get(COURIER_JOBS_CHANNEL), asked.get(EARNINGS_CHANNEL)]).toEqual([2, 2]);
    } finally {
      for (const st of streams) st.close();
      db.listen = listen;
    }
  });
});

describe.runIf(onPostgres)('the courier live channel across two instances (PostgreSQL)', () => {
  const two = useTwoInstances();

  it('carries an offer made through one instance to a stream open on the other within 2 s', async () => {
    const { a, b } = two;
    const s = await createPartner(a, { environment: 'production' });
    const c = await signedInCourier(b, 'Adjoa Two');
    const st = await openStream(c.web, '/courier/events');
    try {
      await st.next((e) => e.data.kind === 'none');
      const order = await productionOrder(s);
      const made = Date.now();
      expect(await a.app.platform.dispatch!.offers.offerTo(order, c.id)).toBe(true);
      const offer = await st.next((e) => e.data.kind === 'offer', 2000);
      expect(offer.data.order_id).toBe(order);
      console.info(`offer on the other instance's stream after ${Date.now() - made} ms`);
    } finally {
      st.close();
    }
  });
});
