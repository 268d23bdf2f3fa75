import { verifyWebhook } from '@partner-platform/sdk';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import { Receiver, until } from '../receiver.ts';

let p: TestPlatform;
let rx: Receiver;
beforeAll(async () => {
  rx = await new Receiver().start();
  // A shrunk schedule: retries after 50 ms and 100 ms, then the dead letter.
  p = await startPlatform({
    socket: false,
    env: {
      WEBHOOK_DISPATCHER: 'on',
      WEBHOOK_RETRY_SCHEDULE: '0.05,0.1',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_LOCAL_DESTINATIONS: 'on',
    },
  });
});
afterAll(async () => {
  await p.close();
  await rx.close();
});

/** A staging app whose webhook URL is the receiver's `path`. */
async function appWith(path: string): Promise<PartnerSetup & { secret: string }> {
  const s = await createPartner(p, { webhookUrl: rx.url + path });
  return { ...s, secret: s.webhookSecret! };
}

const createOrder = async (s: PartnerSetup, extra: Record<string, unknown> = {}) =>
  (await s.client.send<any>('POST', '/api/v1/delivery/orders.create', { body: orderBody(extra) }))
    .body.data.order_details.order_id as string;

describe('webhook delivery', () => {
  it('signs per Standard Webhooks: an independent implementation and the SDK both verify it', async () => {
    const s = await appWith('/signed');
    const orderId = await createOrder(s);
    await until(() => rx.on('/signed').length >= 1);
    const [hit] = rx.on('/signed');
    const event = new Webhook(s.secret).verify(
      hit!.body,
      hit!.headers as Record<string, string>,
    ) as any;
    expect(event).toMatchObject({
      type: 'delivery.order.created',
      environment: 'staging',
      data: { order_id: orderId, status: 'placed', sequence: 1 },
    });
    expect(event.id).toBe(hit!.headers['webhook-id']);
    // Tracing is off unless configured: no trace context goes out.
    expect(hit!.headers.traceparent).toBeUndefined();
    expect(verifyWebhook(s.secret, hit!.headers, hit!.body).id).toBe(event.id);
    expect(() =>
      verifyWebhook(s.secret, hit!.headers, hit!.body.replace('placed', 'delivered')),
    ).toThrow();
    expect(() =>
      verifyWebhook(s.secret, hit!.headers, hit!.body, { now: () => Date.now() + 301_000 }),
    ).toThrow(/too far/);
  });

  it('retries on the schedule (fail, fail, succeed) and records every attempt', async () => {
    const s = await appWith('/flaky');
    rx.script.set('/flaky', [500, 503]);
    const orderId = await createOrder(s);
    await until(() => rx.on('/flaky').length >= 3);
    const [event] = await eventsAbout(p, orderId);
    await until(
      async () =>
        (await p.admin('GET', `/webhooks/deliveries/${event!.id}`)).body.status === 'delivered',
    );
    const detail = (await p.admin('GET', `/webhooks/deliveries/${event!.id}`)).body;
    expect(detail.attempts.map((a: any) => a.status_code)).toEqual([500, 503, 200]);
    expect(
      detail.attempts.every(
        (a: any) => typeof a.latency_ms === 'number' && a.response_excerpt === 'ok',
      ),
    ).toBe(true);
    expect(new Set(rx.on('/flaky').map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('dead-letters after the last retry; an operator lists and replays it', async () => {
    const s = await appWith('/down');
    rx.script.set('/down', [500, 500, 500]);
    const orderId = await createOrder(s);
    const [event] = await eventsAbout(p, orderId);
    await until(
      async () =>
        (await p.admin('GET', `/webhooks/deliveries/${event!.id}`)).body.status === 'dead',
    );
    const dead = (await p.admin('GET', `/webhooks/deliveries?status=dead&app_id=${s.appId}`)).body
      .deliveries;
    expect(dead.map((d: any) => d.delivery_id)).toEqual([event!.id]);
    expect(dead[0]).toMatchObject({ attempts: 3, last_status_code: 500 });
    const replay = await p.admin('POST', `/webhooks/deliveries/${event!.id}/replay`);
    expect(replay.status).toBe(202);
    await until(
      async () =>
        (await p.admin('GET', `/webhooks/deliveries/${event!.id}`)).body.status === 'delivered',
    );
    expect(rx.on('/down')).toHaveLength(4);
    const since = new Date(Date.now() - 60_000).toISOString();
    expect(
      (await p.admin('POST', `/apps/${s.appId}/webhooks/replay`, { since })).body.replayed,
    ).toEqual([]);
  });

  it("disables an endpoint that answers 410 until an operator enables it; a per-order URL's 410 stops only that URL", async () => {
    const s = await appWith('/gone');
    rx.script.set('/gone', [410]);
    const first = await createOrder(s);
    const events = async (id: string): Promise<any> => (await eventsAbout(p, id))[0];
    // The 410 disables the endpoint in the statement that records it, not when the receiver saw it:
    // an event claimed in between is still sent.
    await until(async () => (await events(first)).delivery_status === 'dead');
    const second = await createOrder(s);
    await until(async () => (await events(second)).delivery_status === 'dead');
    expect((await events(second)).last_error).toMatch(/disabled/);
    expect(rx.on('/gone')).toHaveLength(1);
    expect((await events(first)).delivery_status).toBe('dead');

    const perOrderUrl = `${rx.url}/order-only`;
    rx.script.set('/order-only', [410]);
    const perOrder = await createOrder(s, { webhook_url: perOrderUrl });
    await until(async () => (await events(perOrder)).delivery_status === 'dead');
    expect(rx.on('/order-only')).toHaveLength(1);
    expect((await p.admin('POST', `/apps/${s.appId}/webhooks/enable`, {})).body).toEqual({
      url: `${rx.url}/gone`,
      enabled: true,
    });
    await p.admin('POST', `/webhooks/deliveries/${(await events(second)).id}/replay`);
    await until(() => rx.on('/gone').length === 2);
    const third = await createOrder(s, { webhook_url: perOrderUrl });
    await until(async () => (await events(third)).delivery_status === 'dead');
    expect(rx.on('/order-only')).toHaveLength(1);
  });

  it('records a burst of outcomes together: every attempt, each event once, the endpoint disabled once', async () => {
    const s = await appWith('/gone-burst');
    rx.fallback = 410;
    try {
      const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create_bulk', {
        body: { orders: Array.from({ length: 12 }, () => orderBody()) },
      });
      expect(res.status).toBe(200);
      const dead = async () =>
        (
          await p.app.platform.db.query<{ n: number }>(
            "select count(*)::int as n from outbox_events where app_id = $1 and delivery_status = 'dead'",
            [s.appId],
          )
        )[0]!.n;
      await until(async () => (await dead()) === 12);
    } finally {
      rx.fallback = 200;
    }
    const [attempts] = await p.app.platform.db.query<{ n: number; events: number }>(
      'select count(*)::int as n, count(distinct a.event_id)::int as events from webhook_attempts a join outbox_events e on e.id = a.event_id where e.app_id = $1',
      [s.appId],
    );
    // Events claimed before the first 410 was recorded were sent; the rest were stopped unsent.
    expect(attempts!.n).toBe(rx.on('/gone-burst').length);
    expect(attempts!.events).toBe(attempts!.n);
    expect(
      await p.app.platform.db.query(
        'select url from webhook_disabled_endpoints where app_id = $1',
        [s.appId],
      ),
    ).toEqual([{ url: `${rx.url}/gone-burst` }]);
  });

  it('signs with both secrets during a rotation', async () => {
    const s = await appWith('/rotating');
    const rotated = (
      await p.admin('POST', `/apps/${s.appId}/webhook-secret/rotate`, { overlap_hours: 1 })
    ).body;
    expect(rotated.webhook_secret).toMatch(/^whsec_/);
    await createOrder(s);
    await until(() => rx.on('/rotating').length >= 1);
    const [hit] = rx.on('/rotating');
    expect(String(hit!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWebhook(s.secret, hit!.headers, hit!.body).type).toBe('delivery.order.created');
    expect(verifyWebhook(rotated.webhook_secret, hit!.headers, hit!.body).type).toBe(
      'delivery.order.created',
    );
  });

  it('marks events of an app without a webhook URL as having no destination', async () => {
    const s = await createPartner(p);
    const orderId = await createOrder(s);
    await until(
      async () => (await eventsAbout(p, orderId))[0]!.delivery_status === 'no_destination',
    );
  });
});
