import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../../../src/modules/webhooks/dispatcher.ts';
import type { Db } from '../../../src/platform/db/index.ts';
import { Destinations } from '../../../src/platform/outbound/destinations.ts';
import { SecretBox } from '../../../src/platform/secrets.ts';
import { fileDatabase } from '../../helpers/file-database.ts';
import { onPostgres } from '../../helpers/harness.ts';
import { until } from '../receiver.ts';

// A backlog for one slow endpoint. It used to claim again each time one place opened, taking a
// claim's worth for one place and handing the rest back, one statement per event, every time; then
// each refill still took a claim's worth and handed back all but the queue's free places. Once the
// dispatcher knows the endpoint it claims only what its turns and queue have room for.

const EVENTS = 60;
const silent = { info() {}, warn() {}, error() {}, debug() {} } as never;
const box = new SecretBox(randomBytes(32));
const received: string[] = [];
// A slow endpoint: each answer takes 100 ms, so its four turns are always busy, and its queue (refilled
// once down to half) never runs dry between claims; a gate that emptied would forget the endpoint,
// and the next claim, knowing no room for it, would take more than its room again.
const receiver: Server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received.push((JSON.parse(body) as { id: string }).id);
    setTimeout(() => res.writeHead(204).end(), 100);
  });
});
beforeAll(() => new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r)));
afterAll(() => new Promise((r) => receiver.close(r)));

const database = fileDatabase(async (db) => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await db.query(`insert into partners (id, name) values ('par_q', 'Queue')`);
  await db.query(
    `insert into apps (id, partner_id, name, webhook_secret_sealed, webhook_url) values ('app_q', 'par_q', 'Queue', $1, $2)`,
    [box.seal(`whsec_${randomBytes(24).toString('base64url')}`), url],
  );
  await db.query(
    `insert into outbox_events (id, app_id, environment, type, subject_id, sequence, payload)
     select 'evt_q' || g, 'app_q', 'staging', 'delivery.order.created', 'dlv_q' || g, 1,
            jsonb_build_object('id', 'evt_q' || g) from generate_series(1, $1::int) g`,
    [EVENTS],
  );
}, 4);

describe(`a backlog for one slow endpoint (${onPostgres ? 'PostgreSQL' : 'embedded'})`, () => {
  it('is sent once each, claimed again only as its queue runs down, and handed back in batches', async () => {
    const statements = { claims: 0, handBacks: 0, handedBack: 0 };
    const db = database();
    const counted: Db = {
      ...db,
      query: (sql, params) => {
        if (sql.includes('with candidates as')) statements.claims++;
        if (sql.includes('set lease_until = null, next_attempt_at')) {
          statements.handBacks++;
          statements.handedBack += (params![0] as string[]).length;
        }
        return db.query(sql, params);
      },
    };
    const dispatcher = new WebhookDispatcher(
      counted,
      box,
      {
        retryScheduleMs: [60_000],
        timeoutMs: 5_000,
        concurrency: 64,
        perEndpointConcurrency: 4,
        pollMs: 50,
      },
      new Destinations(true),
      Date.now,
      silent,
    );
    dispatcher.start();
    try {
      await until(() => received.length >= EVENTS, 20_000);
    } finally {
      await dispatcher.stop();
    }
    expect(new Set(received).size).toBe(EVENTS);
    expect(received).toHaveLength(EVENTS);
    // Four turns and a queue of four, refilled once it is down to two: about one claim per two
    // sends. Claiming on every place opening handed back a statement per event per send (thousands).
    expect(statements.claims).toBeGreaterThan(0);
    expect(statements.claims).toBeLessThanOrEqual(EVENTS);
    // Only the first claim, before the endpoint was known, took more than its four turns and four
    // queue places: the rest of it was handed back (in two statements), and nothing after it.
    expect(statements.handBacks).toBeLessThanOrEqual(2);
    expect(statements.handedBack).toBeLessThanOrEqual(EVENTS - 8);
  }, 60_000);
});
