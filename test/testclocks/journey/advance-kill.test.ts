import { PartnerClient } from '@partner-platform/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import {
  ADMIN_TOKEN,
  createPartner,
  onPostgres,
  SECRETS_KEY,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { serviceMondayAhead } from '../../helpers/service-days.ts';
import { spawnServer, type ServerProcess } from '../../helpers/process.ts';

// A test clock's advance across a kill -9 of the server that runs it, then a restart: the advance
// is taken over and completes, each time-driven step happened once, the books balance.
const iso = (ms: number) => new Date(ms).toISOString();
// A Monday 08:00 a few weeks from now, in a working week with no public holiday.
const MONDAY = serviceMondayAhead();
const HOUR = 3_600_000;
const STEP_SECONDS = '600';

let p: TestPlatform;
let s: PartnerSetup;
const children: ServerProcess[] = [];

describe("a test clock's advance across a kill -9 of its server, then a restart", () => {
  beforeAll(async () => {
    if (!onPostgres) return;
    p = await startPlatform({ env: { SANDBOX_COURIER_STEP_SECONDS: STEP_SECONDS } });
    s = await createPartner(p);
  });
  // The test and the servers it kills share one database: only PostgreSQL is shared by processes.
  beforeEach((ctx) =>
    ctx.skip(!onPostgres, 'PostgreSQL only: the test and the server it kills share one database'),
  );
  afterAll(async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await p?.close();
  });

  const server = async () => {
    const started = await spawnServer({
      DATABASE_URL: process.env.DATABASE_URL!,
      DATABASE_SCHEMA: p.schema!,
      ADMIN_TOKEN,
      SECRETS_KEY,
      SANDBOX_QUICKSTART: 'off',
      WEBHOOK_DISPATCHER: 'off',
      SANDBOX_COURIER_STEP_SECONDS: STEP_SECONDS,
    });
    children.push(started);
    const client = new PartnerClient({
      apiKey: s.apiKey,
      signingSecret: s.signingSecret,
      baseUrl: started.url,
    });
    const call = (op: string, body: unknown) =>
      client.send<any>('POST', `/api/v1/delivery/${op}`, { body });
    return { ...started, call };
  };
  const db = () => p.app.platform.db;
  const rows = <T>(sql: string, params: unknown[] = []) => db().query<T>(sql, params);
  const statuses = async (orderId: string) =>
    (
      await rows<{ status: string }>(
        `select payload->'data'->>'status' as status from outbox_events
          where subject_id = $1 and type like 'delivery.order.%' and type <> 'delivery.order.late'
          order by sequence`,
        [orderId],
      )
    ).map((r) => r.status);

  it('killed while a step waits in the database: after the lease the advance is taken over and every step runs once', async () => {
    const clockId = (
      await s.client.send<any>('POST', '/api/v1/delivery/test_clocks.create', {
        body: { frozen_time: iso(MONDAY), name: 'crash' },
      })
    ).body.data.id as string;
    const order = async (extra: Record<string, unknown>) => {
      const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
        body: orderBody({ test_clock_id: clockId, ...extra }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.order_details.order_id as string;
    };
    // The first goes at once; the second only when its parcel is ready at noon.
    const first = await order({});
    const second = await order({ pickup_ready_at: iso(MONDAY + 4 * HOUR) });
    const to = iso(MONDAY + 10 * HOUR);

    // The second order's row is held, so the advance stops at its acceptance, waiting: killed there.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: (pid: number) => void;
    const lockTaken = new Promise<number>((r) => (locked = r));
    const holder = db().transaction(async (tx) => {
      await tx.query('select id from delivery_orders where id = $1 for update', [second]);
      locked((await tx.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]!.pid);
      await held;
    });
    const holderPid = await lockTaken;
    const one = await server();
    const cut = one.call('test_clocks.advance', { test_clock_id: clockId, frozen_time: to });
    void cut.catch(() => undefined);
    // Waiting on the test's lock (not some other test's sharing the database).
    const waiting = async () =>
      (
        await rows<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
          [holderPid],
        )
      )[0]!.n;
    await expect.poll(waiting, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
    one.child.kill('SIGKILL');
    await one.exited;
    release();
    await holder;

    // Cut short: the first order delivered, the second offered but not accepted, the clock advancing.
    expect(await statuses(first)).toEqual([
      'placed',
      'accepted',
      'pickedUp',
      'in_transit',
      'delivered',
    ]);
    expect(await statuses(second)).toEqual(['placed']);
    const [stranded] = await rows<{ status: string; frozen_time: Date }>(
      'select status, frozen_time from test_clocks where id = $1',
      [clockId],
    );
    expect(stranded!.status).toBe('advancing');
    expect(new Date(stranded!.frozen_time).getTime()).toBeLessThan(Date.parse(to));

    // A restarted server refuses a second advance while the dead one's lease holds, takes it over after.
    const two = await server();
    const early = await two.call('test_clocks.advance', {
      test_clock_id: clockId,
      frozen_time: to,
    });
    expect([early.status, early.body.code]).toEqual([409, 'TEST_CLOCK_ADVANCING']);
    // Five minutes on (the lease): the advance is sent again.
    await rows(
      `update test_clocks set advance_started_at = advance_started_at - interval '6 minutes' where id = $1`,
      [clockId],
    );
    const resumed = await two.call('test_clocks.advance', {
      test_clock_id: clockId,
      frozen_time: to,
    });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.data).toMatchObject({ status: 'ready', frozen_time: to });

    // Every step once: each status event once, one offer per order, one delivery each, books balanced.
    for (const id of [first, second]) {
      expect(await statuses(id)).toEqual([
        'placed',
        'accepted',
        'pickedUp',
        'in_transit',
        'delivered',
      ]);
      const offers = await rows('select id from dispatch_offers where order_id = $1', [id]);
      expect(offers).toHaveLength(1);
      const assignments = await rows('select id from dispatch_assignments where order_id = $1', [
        id,
      ]);
      expect(assignments).toHaveLength(1);
    }
    const sequences = await rows<{ n: number }>(
      `select count(*)::int as n from (select subject_id, type, sequence from outbox_events
          where subject_id = any($1) group by subject_id, type, sequence having count(*) > 1) d`,
      [[first, second]],
    );
    expect(sequences[0]!.n).toBe(0);
    const unbalanced = await rows(
      'select journal_id from ledger_entries group by journal_id having sum(amount_pesewas) <> 0',
    );
    expect(unbalanced).toEqual([]);
  });
});
