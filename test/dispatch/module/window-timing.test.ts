import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { CouriersService } from '../../../src/modules/couriers/index.ts';
import { Offers } from '../../../src/modules/dispatch/offers.ts';
import { dispatchRepository } from '../../../src/modules/dispatch/repository.ts';
import { openDatabase, type Db } from '../../../src/platform/db/index.ts';
import { onPostgres } from '../../helpers/harness.ts';

// The dispatcher's rounds on a clock the test moves: no sleeps, no server.
const PICKUP = { lat: 5.549, lng: -0.209 };
const DROPOFF = { lat: 5.635, lng: -0.161 };
const LEAD_MINUTES = 30;
const LATE_MINUTES = 10;
const silent = { warn() {}, info() {}, error() {}, debug() {} } as never;

let now = Date.parse('2026-03-30T09:00:00Z');
let db: Db;
let offers: Offers;
let couriers: CouriersService;

beforeAll(async () => {
  const schema = onPostgres ? `t_${randomBytes(6).toString('hex')}` : undefined;
  db = await openDatabase(
    loadConfig({
      DATABASE_URL: process.env.DATABASE_URL ?? 'memory:',
      ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    }).database,
  );
  couriers = new CouriersService(db, () => now);
  offers = new Offers(
    db,
    couriers,
    {
      offerSeconds: 45,
      lateMinutes: LATE_MINUTES,
      batchMaxStops: 4,
      batchWindowSeconds: 600,
      windowLeadMinutes: LEAD_MINUTES,
      // Positions reported at the start stay fresh across the days the clock moves.
      positionMaxAgeMinutes: 7 * 24 * 60,
      intervalMs: 0,
      locationRetentionHours: 24,
      sandboxStepSeconds: 0,
      sandboxForProduction: false,
    },
    () => now,
    silent,
  );
});
afterAll(() => db?.close());

let n = 0;
/** An order placed now, as delivery's placement statement writes its job. */
async function place(
  window: { ready?: string; deadline?: string } = {},
  environment: 'staging' | 'production' = 'production',
): Promise<string> {
  const orderId = `dlv_window_${++n}`;
  const { sql, params } = offers.onPlace(
    {
      orderId,
      environment,
      at: new Date(now),
      pickup: PICKUP,
      dropoff: DROPOFF,
      pickupRegion: 'Greater Accra',
      pickupReadyAt: window.ready ? new Date(window.ready) : null,
      dropoffDeadline: window.deadline ? new Date(window.deadline) : null,
    },
    1,
  );
  await db.query(sql, params);
  return orderId;
}

async function courierOnDuty(): Promise<string> {
  const c = await couriers.create({
    name: `Courier ${String.fromCharCode(65 + n)}`,
    phone: `024${String(7_000_000 + ++n).slice(-7)}`,
    vehicle: 'motorbike',
    zones: ['greater-accra'],
  });
  await couriers.setDuty(c.id, true);
  await couriers.reportPosition(c.id, { ...PICKUP, at: new Date(now) });
  return c.id;
}

const state = async (orderId: string) =>
  (
    await db.query<{ state: string; late: boolean }>(
      'select state, late_at is not null as late from dispatch_jobs where order_id = $1',
      [orderId],
    )
  )[0];

describe('dispatch and delivery windows', () => {
  it('offers a job without a window at the first round, as before', async () => {
    await courierOnDuty();
    const id = await place();
    expect((await offers.tick()).offered).toBe(1);
    expect((await state(id))?.state).toBe('offered');
  });

  it('offers a future-window job only from its ready time less the lead time, and marks it late only from then', async () => {
    await courierOnDuty();
    // Ready tomorrow at 10:00: due at 09:30.
    const id = await place({ ready: '2026-03-31T10:00:00Z', deadline: '2026-03-31T13:00:00Z' });
    const due = Date.parse('2026-03-31T09:30:00Z');

    // Rounds until a minute before it is due: never offered, never late (it was placed a day ago).
    for (const at of [now, now + 3_600_000, due - 60_000]) {
      now = at;
      // (Other tests' jobs may be offered again in these rounds: only this job is watched.)
      expect((await offers.tick()).late).not.toContain(id);
      expect(await state(id)).toEqual({ state: 'waiting', late: false });
    }

    now = due;
    await offers.tick();
    expect((await state(id))?.state).toBe('offered');
  });

  it('marks a window job nobody takes late the usual minutes after it fell due', async () => {
    const id = await place({ ready: '2026-04-01T12:00:00Z' });
    const due = Date.parse('2026-04-01T11:30:00Z');
    now = due + (LATE_MINUTES - 1) * 60_000;
    expect((await offers.tick()).late).not.toContain(id);
    now = due + LATE_MINUTES * 60_000;
    expect((await offers.tick()).late).toContain(id);
  });

  it('leaves a staging window job to the sandbox courier only once it is due', async () => {
    const id = await place({ ready: '2026-04-02T12:00:00Z' }, 'staging');
    const sandboxNext = async () =>
      (await dispatchRepository.waitingIn(db, ['staging'], new Date(now), 100)).map(
        (j) => j.order_id,
      );
    now = Date.parse('2026-04-02T11:29:00Z');
    expect(await sandboxNext()).not.toContain(id);
    now = Date.parse('2026-04-02T11:31:00Z');
    expect(await sandboxNext()).toContain(id);
  });

  it("reads the round's due jobs through the due index, not every waiting job", async () => {
    const plan = await db.transaction(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      return tx.query<Record<string, string>>(
        `explain select order_id from dispatch_jobs where state = 'waiting' and environment = 'production' and due_at <= $1 order by due_at limit 100`,
        [new Date(now)],
      );
    });
    expect(plan.map((r) => Object.values(r)[0]).join('\n')).toContain('dispatch_jobs_due_idx');
  });
});
