import type { PartnerClient } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDeliveredAt } from '../../delivery/delivered-at.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import type { TestPlatform } from '../../helpers/harness.ts';
import type { Receiver } from '../../webhooks/receiver.ts';
import { startClockedPartner } from '../helpers.ts';

/**
 * Deleting a sandbox test clock leaves nothing frozen in its time: its open orders are cancelled in
 * real time, each with its webhook; its parked webhook retries go back to real-time retries.
 */

// The server's own time runs from 07:00 on Monday 1 March 2027; the clock stands at 08:00.
const START = Date.parse('2027-03-01T07:00:00Z');
const offset = START - Date.now();
const clock = () => Date.now() + offset;
const FROZEN = '2027-03-01T08:00:00.000Z';

let p: TestPlatform;
let rx: Receiver;
let client: PartnerClient;
beforeAll(async () => {
  ({ p, rx, client } = await startClockedPartner(clock));
});
afterAll(async () => {
  await p.close();
  await rx.close();
});

type Res = { status: number; body: any };
const call = (op: string, body: unknown): Promise<Res> =>
  client.send('POST', `/api/v1/delivery/${op}`, { body });
const received = (path: string, orderId: string) =>
  rx
    .on(path)
    .map((r) => JSON.parse(r.body))
    .filter((e) => e.data.order_id === orderId)
    .map((e) => [e.type, e.data.status]);
const order = async (clockId: string, webhookUrl = `${rx.url}/hooks`) => {
  const res = await call(
    'orders.create',
    orderBody({ test_clock_id: clockId, webhook_url: webhookUrl }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.order_details.order_id as string;
};
const jobState = async (orderId: string) =>
  (
    await p.app.platform.db.query<{ state: string }>(
      'select state from dispatch_jobs where order_id = $1',
      [orderId],
    )
  )[0]?.state;

describe("a test clock's deletion", () => {
  it('cancels its open orders in real time with their webhooks, and leaves ended ones as they are', async () => {
    const clockId = (await call('test_clocks.create', { frozen_time: FROZEN })).body.data.id;
    const done = await order(clockId);
    // Two days on: the sandbox courier has delivered it.
    await call('test_clocks.advance', {
      test_clock_id: clockId,
      frozen_time: '2027-03-03T08:00:00Z',
    });
    expect((await call('orders.get', { order_id: done })).body.data.status).toBe('delivered');
    // At the clock's time (from 08:00; the server's is 07:00), as its move.
    expect(await expectDeliveredAt(p, done)).toBeGreaterThan(Date.parse(FROZEN));
    const open = await order(clockId);
    // Its endpoint fails the first delivery: parked until the clock reaches its retry time.
    rx.script.set('/flaky', [500]);
    const parked = await order(clockId, `${rx.url}/flaky`);
    await expect.poll(() => rx.on('/flaky').length).toBe(1);
    expect(await jobState(open)).not.toBe('closed');

    const deleted = await call('test_clocks.delete', { test_clock_id: clockId });
    expect(deleted.body.data).toEqual({ id: clockId, object: 'test_clock', deleted: true });
    expect((await call('test_clocks.get', { test_clock_id: clockId })).status).toBe(404);

    for (const id of [open, parked]) {
      const got = (await call('orders.get', { order_id: id })).body.data;
      expect(got.status).toBe('cancelled');
      // In real time (the server's), not the clock's two days on.
      expect(Math.abs(Date.parse(got.status_details.timestamp) - clock())).toBeLessThan(60_000);
      expect(await jobState(id)).toBe('closed');
    }
    expect((await call('orders.get', { order_id: done })).body.data.status).toBe('delivered');
    // Both events, once each. Sent at once, they may arrive either way round (CI saw the cancellation
    // first on a loaded machine): delivery is at least once, and partners order by sequence.
    await expect
      .poll(() => received('/hooks', open).map(String).sort())
      .toEqual(['delivery.order.cancelled,cancelled', 'delivery.order.created,placed']);
    // The parked retry is sent again in real time, and the cancellation.
    await expect
      .poll(() => received('/flaky', parked).map(String).sort())
      .toEqual([
        'delivery.order.cancelled,cancelled',
        'delivery.order.created,placed',
        'delivery.order.created,placed',
      ]);
    const unbalanced = await p.app.platform.db.query(
      'select journal_id from ledger_entries group by journal_id having sum(amount_pesewas) <> 0',
    );
    expect(unbalanced).toEqual([]);
  });

  // Two sessions at once need PostgreSQL (PGlite serves one at a time).
  it.runIf(process.env.DATABASE_URL)(
    'skips an order that ends while the delete is ending it, and ends the rest',
    async () => {
      const clockId = (await call('test_clocks.create', { frozen_time: FROZEN })).body.data.id;
      const first = await order(clockId);
      const second = await order(clockId);
      // Another writer holds the first order and cancels it while the delete waits on its row.
      let cancel!: () => void;
      const go = new Promise<void>((r) => (cancel = r));
      let locked!: (pid: number) => void;
      const lockTaken = new Promise<number>((r) => (locked = r));
      const holder = p.app.platform.db.transaction(async (tx) => {
        await tx.query('select id from delivery_orders where id = $1 for update', [first]);
        locked((await tx.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]!.pid);
        await go;
        await tx.query(
          "update delivery_orders set status = 'cancelled', version = version + 1 where id = $1",
          [first],
        );
      });
      const holderPid = await lockTaken;
      const deleting = call('test_clocks.delete', { test_clock_id: clockId });
      await expect
        .poll(
          async () =>
            (
              await p.app.platform.db.query<{ n: number }>(
                'select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
                [holderPid],
              )
            )[0]!.n,
          { interval: 50 },
        )
        .toBeGreaterThan(0);
      cancel();
      await holder;
      const deleted = await deleting;
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect((await call('orders.get', { order_id: second })).body.data.status).toBe('cancelled');
      expect((await call('test_clocks.get', { test_clock_id: clockId })).status).toBe(404);
    },
  );
});
