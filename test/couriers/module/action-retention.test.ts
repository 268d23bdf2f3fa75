import { describe, expect, it } from 'vitest';
import { ACTION_RETENTION_MS, CourierActions } from '../../../src/modules/couriers/actions.ts';
import { onPostgres } from '../../helpers/harness.ts';
import { fileDatabase } from '../../helpers/file-database.ts';

// The courier app's action records are kept a week (replays from a phone's queue come within
// hours); the retention job deletes older ones for every courier, in bounded batches, whether or
// not the courier ever signs in again.

const NOW = Date.parse('2026-11-30T12:00:00Z');
const DAY = 86_400_000;
const database = fileDatabase(async (db) => {
  await db.query(
    `insert into couriers (id, name, phone, vehicle, zones, created_at, updated_at)
     values ('cou_ret_a', 'Ama', '+233240000001', 'motorbike', '{}', now(), now()),
            ('cou_ret_b', 'Kofi', '+233240000002', 'motorbike', '{}', now(), now())`,
  );
});

/** `count` applied actions of `courierId` received `ageMs` before NOW. */
async function seed(courierId: string, ageMs: number, count: number): Promise<void> {
  await database().query(
    `insert into courier_actions (courier_id, id, kind, outcome, received_at)
     select $1, gen_random_uuid(), 'accept', 'applied', $2 from generate_series(1, $3::int)`,
    [courierId, new Date(NOW - ageMs), count],
  );
}

const kept = async () =>
  database().query<{ courier_id: string; n: number }>(
    `select courier_id, count(*)::int as n from courier_actions group by 1 order by 1`,
  );

describe(`courier action retention (${onPostgres ? 'PostgreSQL' : 'embedded'})`, () => {
  it("deletes every courier's actions past the week, in batches, and keeps the rest", async () => {
    // Past one batch of 1,000, and a courier who has not signed in since.
    await seed('cou_ret_a', 8 * DAY, 1_203);
    await seed('cou_ret_b', 30 * DAY, 3);
    await seed('cou_ret_a', ACTION_RETENTION_MS - 60_000, 2);
    await seed('cou_ret_b', DAY, 1);

    const actions = new CourierActions(database(), () => NOW);
    expect(await actions.prune()).toBe(1_206);
    expect(await kept()).toEqual([
      { courier_id: 'cou_ret_a', n: 2 },
      { courier_id: 'cou_ret_b', n: 1 },
    ]);
    expect(await actions.prune()).toBe(0);
  });
});
