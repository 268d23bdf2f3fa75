import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { CouriersService } from '../../../src/modules/couriers/index.ts';
import { Offers } from '../../../src/modules/dispatch/offers.ts';
import { openDatabase, type Db } from '../../../src/platform/db/index.ts';
import { onPostgres } from '../../helpers/harness.ts';

// Which waiting jobs dispatch batches, on its rounds over a database alone (the clock moved by the test).
const PICKUP = { lat: 5.549, lng: -0.209 };
const OSU = { lat: 5.556, lng: -0.182 };
const LABADI = { lat: 5.561, lng: -0.145 };
const silent = { warn() {}, info() {}, error() {}, debug() {} } as never;

let now = Date.parse('2026-03-30T09:00:00Z');
let db: Db;
let couriers: CouriersService;
const settings = {
  offerSeconds: 45,
  lateMinutes: 10,
  windowLeadMinutes: 30,
  batchMaxStops: 4,
  batchWindowSeconds: 600,
  positionMaxAgeMinutes: 7 * 24 * 60,
  intervalMs: 0,
  locationRetentionHours: 24,
  sandboxStepSeconds: 0,
  sandboxForProduction: false,
};
const offersWith = (changes: Partial<typeof settings> = {}) =>
  new Offers(db, couriers, { ...settings, ...changes }, () => now, silent);

beforeAll(async () => {
  const schema = onPostgres ? `t_${randomBytes(6).toString('hex')}` : undefined;
  db = await openDatabase(
    loadConfig({
      DATABASE_URL: process.env.DATABASE_URL ?? 'memory:',
      ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    }).database,
  );
  couriers = new CouriersService(db, () => now);
});
afterAll(() => db?.close());

// Each test starts with no job waiting and nobody on duty.
beforeEach(async () => {
  await db.query(`update dispatch_jobs set state = 'closed' where state <> 'closed'`);
  await db.query(`update dispatch_offers set state = 'withdrawn' where state = 'open'`);
  for (const c of await couriers.list({ onDuty: true, limit: 200 }))
    await couriers.setDuty(c.id, false);
});

let n = 0;
async function place(
  dropoff: { lat: number; lng: number },
  o: { deadline?: number; pickup?: { lat: number; lng: number }; env?: 'staging' } = {},
): Promise<string> {
  const orderId = `dlv_batch_${++n}`;
  const { sql, params } = offersWith().onPlace(
    {
      orderId,
      environment: o.env ?? 'production',
      at: new Date(now),
      pickup: o.pickup ?? PICKUP,
      dropoff,
      pickupRegion: 'Greater Accra',
      pickupReadyAt: null,
      dropoffDeadline: o.deadline === undefined ? null : new Date(now + o.deadline * 60_000),
    },
    1,
  );
  await db.query(sql, params);
  return orderId;
}

async function courierOnDuty(): Promise<string> {
  const c = await couriers.create({
    name: `Courier ${String.fromCharCode(65 + (n % 26))}`,
    phone: `024${String(8_000_000 + ++n).slice(-7)}`,
    vehicle: 'motorbike',
    zones: ['greater-accra'],
  });
  await couriers.setDuty(c.id, true);
  await couriers.reportPosition(c.id, { ...PICKUP, at: new Date(now) });
  return c.id;
}

/** Each job's open offer: its courier, batch and stop. */
const offerOf = async (orderId: string) =>
  (
    await db.query<{ courier_id: string; batch_id: string | null; stop: number | null }>(
      `select courier_id, batch_id, stop from dispatch_offers where order_id = $1 and state = 'open'`,
      [orderId],
    )
  )[0];

describe('batching', () => {
  it('never batches a job whose drop would miss its deadline because of the batch (it goes alone)', async () => {
    await courierOnDuty();
    await courierOnDuty();
    // Osu alone is reached in about 16½ minutes (the offer's 45 s, a stop at the pickup, 4 road km, a
    // stop at the door); a drop on the way, routed before it, would make it about 19½: past 18.
    const osu = await place(OSU, { deadline: 18 });
    const before = await place({ lat: 5.552, lng: -0.196 });
    await offersWith().tick();
    const [a, b] = [await offerOf(osu), await offerOf(before)];
    expect(a?.batch_id).toBeNull();
    expect(b?.batch_id).toBeNull();
    expect(a?.courier_id).not.toBe(b?.courier_id);
  });

  it('batches a job with a deadline the route still keeps', async () => {
    await courierOnDuty();
    // Labadi comes after Osu (about 32 minutes): Osu's 18 minutes still hold.
    const osu = await place(OSU, { deadline: 18 });
    const after = await place(LABADI, { deadline: 35 });
    await offersWith().tick();
    expect(await offerOf(osu)).toMatchObject({ stop: 1 });
    expect(await offerOf(after)).toMatchObject({
      stop: 2,
      batch_id: (await offerOf(osu))!.batch_id,
    });
  });

  it('batches only jobs due within the window of each other', async () => {
    await courierOnDuty();
    const early = await place(OSU);
    now += 11 * 60_000;
    const late = await place(LABADI);
    await offersWith().tick();
    expect((await offerOf(early))?.batch_id).toBeNull();
    expect(await offerOf(late)).toBeUndefined();
  });

  it('never batches with DISPATCH_BATCH_MAX_STOPS=1, nor staging jobs, nor jobs from another pickup', async () => {
    await courierOnDuty();
    await courierOnDuty();
    const x = await place(OSU);
    const y = await place(LABADI);
    await offersWith({ batchMaxStops: 1 }).tick();
    expect([(await offerOf(x))?.batch_id, (await offerOf(y))?.batch_id]).toEqual([null, null]);

    await db.query(`update dispatch_offers set state = 'withdrawn' where state = 'open'`);
    await db.query(`update dispatch_jobs set state = 'closed' where state <> 'closed'`);
    const staged = await place(OSU, { env: 'staging' });
    const prod = await place(LABADI);
    const elsewhere = await place(OSU, { pickup: { lat: 5.551, lng: -0.209 } });
    await offersWith().tick();
    expect(await offerOf(staged)).toBeUndefined();
    expect((await offerOf(prod))?.batch_id).toBeNull();
    expect((await offerOf(elsewhere))?.batch_id).toBeNull();
  });
});
