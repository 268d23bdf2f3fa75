import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { salesPartner } from '../../catalog/helpers.ts';
import { courierNear } from '../../dispatch/helpers.ts';
import {
  ADMIN_TOKEN,
  countRows,
  onPostgres,
  SECRETS_KEY,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { spawnServer, type ServerProcess } from '../../helpers/process.ts';
import { balanceOf, expectBalanced } from '../helpers.ts';
import { cashHeld, deliveredBy, payoutsOf, scheduledVendor } from '../same-day-helpers.ts';

let p: TestPlatform;
let sp: PartnerSetup;
const children: ServerProcess[] = [];

describe('the same-day run after a handover across a kill -9 of the server, then a restart', () => {
  beforeAll(async () => {
    if (!onPostgres) return;
    p = await startPlatform({ env: { PAYOUT_SAME_DAY_HOLD_HOURS: '0' } });
    sp = await salesPartner(p);
  });
  // The test (its own app sells and delivers, and reads the books) and the servers it kills share one
  // database: only PostgreSQL is shared by processes; the embedded database belongs to one.
  beforeEach((ctx) =>
    ctx.skip(!onPostgres, 'PostgreSQL only: the test and the server it kills share one database'),
  );
  afterAll(async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await p?.close();
  });

  /** The server as deployed, on the test's schema, paying out through the sandbox provider at once. */
  const server = async (env: Record<string, string>) => {
    const started = await spawnServer({
      DATABASE_URL: process.env.DATABASE_URL!,
      DATABASE_SCHEMA: p.schema!,
      ADMIN_TOKEN,
      SECRETS_KEY,
      SANDBOX_QUICKSTART: 'off',
      WEBHOOK_DISPATCHER: 'off',
      PAYOUT_SAME_DAY_HOLD_HOURS: '0',
      PAYOUT_SENDING_GRACE_SECONDS: '1',
      SANDBOX_TRANSFER_DELAY_SECONDS: '0',
      ...env,
    });
    children.push(started);
    return started;
  };

  it('killed after the handover committed, before its run was made: the restarted server makes the run and pays the vendor once', async () => {
    const v = await scheduledVendor(p, 'same_day');
    const c = await courierNear(p, 1, Date.now());
    const owed = await deliveredBy(p, sp, v, c.id);
    const db = p.app.platform.db;

    // The test holds the runs' table: the server's run after the handover waits on it, and is killed there.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = db.transaction(async (tx) => {
      await tx.query('lock table payout_runs in exclusive mode');
      locked();
      await released;
    });
    await isLocked;
    const first = await server({ PAYOUT_INTERVAL_MS: '0' });
    const r = await fetch(`${first.url}/admin/v1/cash/couriers/${c.id}/handovers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount_pesewas: await cashHeld(p, c.id) }),
    });
    expect(r.status).toBe(201);
    const handoverId = ((await r.json()) as { handover: { id: string } }).handover.id;
    const waiting = () =>
      countRows(
        p,
        "select count(*)::int as n from pg_locks where not granted and relation = to_regclass('payout_runs')",
      );
    await expect.poll(waiting, { timeout: 30_000, interval: 50 }).toBe(1);
    first.child.kill('SIGKILL');
    await first.exited;
    release();
    await holding;

    // The handover and its request are committed; no run was made.
    expect(await cashHeld(p, c.id)).toBe(0);
    expect(
      await countRows(
        p,
        'select count(*)::int as n from payout_run_requests where handover_id = $1 and done_at is null',
        [handoverId],
      ),
    ).toBe(1);
    expect(
      await countRows(p, 'select count(*)::int as n from payout_runs where handover_id = $1', [
        handoverId,
      ]),
    ).toBe(0);

    // A new server's payouts job runs the request once the dead one's lease has passed.
    const second = await server({ PAYOUT_INTERVAL_MS: '100' });
    await expect
      .poll(async () => (await payoutsOf(p, v.vendorId)).map((x) => x.status), {
        timeout: 45_000,
        interval: 100,
      })
      .toEqual(['paid']);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    expect(await payoutsOf(p, v.vendorId)).toEqual([
      expect.objectContaining({
        amount_pesewas: owed,
        status: 'paid',
        trigger: 'handover',
        handover_id: handoverId,
      }),
    ]);
    expect(
      await countRows(p, 'select count(*)::int as n from payout_runs where handover_id = $1', [
        handoverId,
      ]),
    ).toBe(1);
    expect(
      await countRows(
        p,
        'select count(*)::int as n from payout_run_requests where handover_id = $1 and done_at is not null and run_id is not null',
        [handoverId],
      ),
    ).toBe(1);
    expect(await balanceOf(p, `vendor_payable:${v.vendorId}`)).toBe(0);
    expect(await balanceOf(p, 'payouts_in_transit')).toBe(0);
    await expectBalanced(p);
  }, 120_000);
});
