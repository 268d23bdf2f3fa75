import { afterEach, describe, expect, it } from 'vitest';
import { webhooksRepository as repo } from '../../../src/modules/webhooks/repository.ts';
import { fileDatabase } from '../../helpers/file-database.ts';

// A claim takes of an app whose endpoint is busy here no more than that endpoint has room for, and
// of every other app (and every event with a URL of its own) what is due, up to the limit.
// (Claims run as single statements here, as the dispatcher's do.)

const database = fileDatabase(async (db) => {
  await db.query(`insert into partners (id, name) values ('par_room', 'Rooms')`);
  await db.query(
    `insert into apps (id, partner_id, name, webhook_secret_sealed, webhook_url)
     values ('app_busy', 'par_room', 'Busy', 'x', 'https://busy.example.org/hook'),
            ('app_idle', 'par_room', 'Idle', 'x', 'https://idle.example.org/hook'),
            ('app_gone', 'par_room', 'Gone', 'x', null)`,
  );
});

let sequence = 0;
/** `count` due events of `appId`, due a second apart, first due first. */
async function due(appId: string, count: number, destinationUrl: string | null = null) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `evt_room${++sequence}`;
    ids.push(id);
    await database().query(
      `insert into outbox_events (id, app_id, environment, type, subject_id, sequence, payload, destination_url, created_at, next_attempt_at)
       values ($1, $2, 'production', 'delivery.order.created', $1, 1, '{}', $3,
               now() - interval '1 hour', now() - interval '1 hour' + $4 * interval '1 second')`,
      [id, appId, destinationUrl, sequence],
    );
  }
  return ids;
}

const claim = (limit: number, rooms: Array<{ appId: string; room: number }>) =>
  repo.claim(database(), new Date(), new Date(Date.now() + 60_000), limit, rooms);

async function release() {
  await database().query(`update outbox_events set lease_until = null`);
}

afterEach(async () => {
  await database().query(`delete from outbox_events`);
});

describe('claiming due webhook events', () => {
  it('takes no more of an app with room than its room, first due first, and all of the others', async () => {
    const busy = await due('app_busy', 5);
    const own = await due('app_busy', 2, 'https://own.example.org/hook');
    const idle = await due('app_idle', 5);
    const { events } = await claim(50, [{ appId: 'app_busy', room: 2 }]);
    const ids = events.map((e) => e.id).sort();
    // Events with a URL of their own are not the endpoint's: the room does not count them.
    expect(ids).toEqual([...busy.slice(0, 2), ...own, ...idle].sort());
    await release();

    const none = await claim(50, [{ appId: 'app_busy', room: 0 }]);
    expect(none.events.map((e) => e.id).sort()).toEqual([...own, ...idle].sort());
    await release();

    // The limit holds over all of it; the room is taken from the first due.
    const limited = await claim(3, [{ appId: 'app_busy', room: 5 }]);
    expect(limited.events.map((e) => e.id).sort()).toEqual(busy.slice(0, 3).sort());
  });

  it('leaves what it did not lease unleased, to be claimed by the next claim', async () => {
    const busy = await due('app_busy', 4);
    const first = await claim(1, [{ appId: 'app_busy', room: 4 }]);
    expect(first.events).toHaveLength(1);
    const second = await claim(10, [{ appId: 'app_busy', room: 4 }]);
    expect([...first.events, ...second.events].map((e) => e.id).sort()).toEqual(busy.sort());
  });

  it('finishes the events of an app with room whose URL was removed as no_destination', async () => {
    const [id] = await due('app_gone', 1);
    const { events, unaddressed } = await claim(10, [{ appId: 'app_gone', room: 4 }]);
    expect(events).toEqual([]);
    expect(unaddressed).toBe(1);
    const [row] = await database().query<{ delivery_status: string }>(
      'select delivery_status from outbox_events where id = $1',
      [id],
    );
    expect(row?.delivery_status).toBe('no_destination');
  });
});
