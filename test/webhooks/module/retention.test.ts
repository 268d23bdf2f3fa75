import { describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../../../src/modules/webhooks/dispatcher.ts';
import { Destinations } from '../../../src/platform/outbound/destinations.ts';
import { SecretBox } from '../../../src/platform/secrets.ts';
import { onPostgres } from '../../helpers/harness.ts';
import { fileDatabase } from '../../helpers/file-database.ts';

// Delivered webhook events (and those with nowhere to go) are deleted with their attempts once past
// WEBHOOK_RETENTION_DAYS; pending events and dead letters stay until they are resolved.

const NOW = Date.parse('2026-11-26T12:00:00Z');
const DAY = 86_400_000;
const silent = { info() {}, warn() {}, error() {}, debug() {} } as never;
const database = fileDatabase(async (db) => {
  await db.query(`insert into partners (id, name) values ('par_ret', 'Retention')`);
  await db.query(
    `insert into apps (id, partner_id, name, webhook_secret_sealed) values ('app_ret', 'par_ret', 'Retention', 'x')`,
  );
});

/** `count` events of one status created `ageDays` before NOW, each with two attempts. */
async function seed(prefix: string, status: string, ageDays: number, count: number): Promise<void> {
  await database().query(
    `insert into outbox_events (id, app_id, environment, type, subject_id, sequence, payload, created_at, delivery_status)
     select $1 || g, 'app_ret', 'production', 'delivery.order.placed', $1 || g, 1, '{}', $2, $3 from generate_series(1, $4::int) g`,
    [prefix, new Date(NOW - ageDays * DAY), status, count],
  );
  await database().query(
    `insert into webhook_attempts (event_id, attempt, url, status_code, latency_ms, at)
     select $1 || g, a, 'https://example.org/hook', 200, 5, $2 from generate_series(1, $3::int) g, generate_series(1, 2) a`,
    [prefix, new Date(NOW - ageDays * DAY), count],
  );
}

const left = async (prefix: string) => ({
  events: Number(
    (
      await database().query<{ n: string }>(
        `select count(*) as n from outbox_events where id like $1 || '%'`,
        [prefix],
      )
    )[0]!.n,
  ),
  attempts: Number(
    (
      await database().query<{ n: string }>(
        `select count(*) as n from webhook_attempts where event_id like $1 || '%'`,
        [prefix],
      )
    )[0]!.n,
  ),
});

describe(`webhook retention (${onPostgres ? 'PostgreSQL' : 'embedded'})`, () => {
  it('deletes delivered and unaddressed events past the retention with their attempts, in batches, and nothing else', async () => {
    await seed('old_delivered_', 'delivered', 31, 1205);
    await seed('old_unaddressed_', 'no_destination', 45, 3);
    await seed('new_delivered_', 'delivered', 29, 4);
    await seed('old_pending_', 'pending', 60, 2);
    await seed('old_dead_', 'dead', 90, 2);
    const settings = {
      retryScheduleMs: [1000],
      timeoutMs: 1000,
      concurrency: 1,
      perEndpointConcurrency: 1,
      pollMs: 1000,
      retentionDays: 30,
    };
    const dispatcher = new WebhookDispatcher(
      database(),
      new SecretBox(Buffer.alloc(32, 7)),
      settings,
      new Destinations(false),
      () => NOW,
      silent,
    );

    expect(await dispatcher.prune()).toBe(1208);
    expect(await left('old_delivered_')).toEqual({ events: 0, attempts: 0 });
    expect(await left('old_unaddressed_')).toEqual({ events: 0, attempts: 0 });
    expect(await left('new_delivered_')).toEqual({ events: 4, attempts: 8 });
    expect(await left('old_pending_')).toEqual({ events: 2, attempts: 4 });
    expect(await left('old_dead_')).toEqual({ events: 2, attempts: 4 });
    // Run again, nothing more is due.
    expect(await dispatcher.prune()).toBe(0);
  }, 60_000);
});
