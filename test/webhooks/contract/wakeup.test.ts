import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createPartner,
  startPlatform,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import { Receiver, until } from '../receiver.ts';
import { OUTBOX_CHANNEL } from '../../../src/modules/webhooks/outbox.ts';

// The poll is a minute here: whatever arrives sooner was woken by the commit.
let p: TestPlatform;
let rx: Receiver;
beforeAll(async () => {
  rx = await new Receiver().start();
  p = await startPlatform({
    socket: false,
    env: { WEBHOOK_DISPATCHER: 'on', WEBHOOK_POLL_MS: '60000', WEBHOOK_LOCAL_DESTINATIONS: 'on' },
  });
  // The dispatcher's first round runs at start; let it go to sleep before measuring.
  await new Promise((r) => setTimeout(r, 300));
});
afterAll(async () => {
  await p.close();
  await rx.close();
});

describe('the webhook dispatcher is woken by commits', () => {
  it('sends an event long before its next poll', async () => {
    const { client } = await createPartner(p, { webhookUrl: `${rx.url}/woken` });
    const started = Date.now();
    await client.send('POST', '/api/v1/delivery/orders.create', { body: orderBody() });
    await until(() => rx.on('/woken').length >= 1, 5_000);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('sends a status change and an operator replay long before the next poll', async () => {
    const { client, appId } = await createPartner(p, { webhookUrl: `${rx.url}/moves` });
    const created = await client.send('POST', '/api/v1/delivery/orders.create', {
      body: orderBody(),
    });
    await until(() => rx.on('/moves').length >= 1, 5_000);
    await client.send('POST', '/api/v1/delivery/orders.cancel', {
      body: {
        order_id: (created.body as { data: { order_details: { order_id: string } } }).data
          .order_details.order_id,
        reason: 'changed my mind',
      },
    });
    await until(() => rx.on('/moves').length >= 2, 5_000);
    const [first] = await p.app.platform.db.query<{ id: string }>(
      "select id from outbox_events where app_id = $1 and type = 'delivery.order.created'",
      [appId],
    );
    expect((await p.admin('POST', `/webhooks/deliveries/${first!.id}/replay`)).status).toBe(202);
    await until(() => rx.on('/moves').length >= 3, 5_000);
  });

  it('finishes events nobody is to receive in one batch, without a transaction each', async () => {
    const { client, appId } = await createPartner(p);
    await Promise.all(
      Array.from({ length: 12 }, () =>
        client.send('POST', '/api/v1/delivery/orders.create', { body: orderBody() }),
      ),
    );
    await until(
      async () =>
        (await countRows(
          p,
          "select count(*)::int as n from outbox_events where app_id = $1 and delivery_status = 'no_destination'",
          [appId],
        )) === 12,
      5_000,
    );
    expect(
      await countRows(
        p,
        'select count(*)::int as n from webhook_attempts a join outbox_events e on e.id = a.event_id where e.app_id = $1',
        [appId],
      ),
    ).toBe(0);
  });

  it('is woken by an order whose event is to be sent, not by one nobody is to receive', async () => {
    const wakes: unknown[] = [];
    const stop = await p.app.platform.db.listen(OUTBOX_CHANNEL, (changed) => wakes.push(changed));
    try {
      const quiet = await createPartner(p);
      const loud = await createPartner(p, { webhookUrl: `${rx.url}/loud` });
      await quiet.client.send('POST', '/api/v1/delivery/orders.create', { body: orderBody() });
      await loud.client.send('POST', '/api/v1/delivery/orders.create', { body: orderBody() });
      await until(() => rx.on('/loud').length >= 1, 5_000);
      // A wake-up for the first order would have been sent on its own, before the second's.
      expect(wakes).toHaveLength(1);
    } finally {
      await stop();
    }
  });

  it("keeps sending a burst bigger than one endpoint's queue without waiting for a poll", async () => {
    const { client } = await createPartner(p, { webhookUrl: `${rx.url}/burst` });
    // 60 events for one endpoint: more than its 4 turns and 16 places in the queue at once.
    for (let i = 0; i < 6; i++)
      await Promise.all(
        Array.from({ length: 10 }, () =>
          client.send('POST', '/api/v1/delivery/orders.create', { body: orderBody() }),
        ),
      );
    await until(() => rx.on('/burst').length >= 60, 15_000);
  });
});
