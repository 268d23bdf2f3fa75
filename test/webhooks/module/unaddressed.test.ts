import { describe, expect, it } from 'vitest';
import {
  appendEvent,
  NO_DESTINATION_ERROR,
  OUTBOX_CHANNEL,
} from '../../../src/modules/webhooks/outbox.ts';
import type { Queryable } from '../../../src/platform/db/index.ts';
import { fileDatabase } from '../../helpers/file-database.ts';

// An event nobody is to receive is finished as it is written (no dispatcher runs here): one row
// version, no claim. An event with a URL of its own, or of an app with one, waits for a dispatcher.

const database = fileDatabase(async (db) => {
  await db.query(`insert into partners (id, name) values ('par_una', 'Unaddressed')`);
  await db.query(
    `insert into apps (id, partner_id, name, webhook_secret_sealed, webhook_url)
     values ('app_none', 'par_una', 'No URL', 'x', null), ('app_url', 'par_una', 'URL', 'x', 'https://example.org/hook'),
           ('app_quiet', 'par_una', 'Still no URL', 'x', null)`,
  );
});

let sequence = 0;
async function written(appId: string, destinationUrl: string | null, q: Queryable = database()) {
  const db = database();
  const id = await appendEvent(q, {
    appId,
    environment: 'production',
    type: 'delivery.order.created',
    subjectId: `dlv_una${++sequence}`,
    sequence: 1,
    destinationUrl,
    data: {},
    at: new Date(),
  });
  return (
    await db.query<{ delivery_status: string; last_error: string | null; attempts: number }>(
      'select delivery_status, last_error, attempts from outbox_events where id = $1',
      [id],
    )
  )[0];
}

describe('an event as it is written', () => {
  it('is finished as no_destination when neither it nor its app has a URL', async () => {
    expect(await written('app_none', null)).toEqual({
      delivery_status: 'no_destination',
      last_error: NO_DESTINATION_ERROR,
      attempts: 0,
    });
  });

  it('waits for a dispatcher when it has a URL of its own, or its app has one', async () => {
    const pending = { delivery_status: 'pending', last_error: null, attempts: 0 };
    expect(await written('app_none', 'https://example.org/order-hook')).toEqual(pending);
    expect(await written('app_url', null)).toEqual(pending);
  });

  it('reads the app as it is when written: a URL set later addresses the next event', async () => {
    expect((await written('app_none', null))?.delivery_status).toBe('no_destination');
    await database().query(
      `update apps set webhook_url = 'https://example.org/late' where id = 'app_none'`,
    );
    expect((await written('app_none', null))?.delivery_status).toBe('pending');
  });

  it('wakes the dispatchers only for an event they are to send', async () => {
    // The database's own statements, with its wake-ups noted instead of sent.
    const rung: string[] = [];
    const q: Queryable = { ...database(), notify: (channel) => void rung.push(channel) };
    await written('app_quiet', null, q);
    expect(rung).toEqual([]);
    await written('app_url', null, q);
    await written('app_quiet', 'https://example.org/order-hook', q);
    expect(rung).toEqual([OUTBOX_CHANNEL, OUTBOX_CHANNEL]);
  });
});
