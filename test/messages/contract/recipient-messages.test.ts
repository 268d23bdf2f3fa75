import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import { courierNear } from '../../dispatch/helpers.ts';
import {
  smsCallbacks,
  startFakeHubtelSms,
  type FakeHubtelSms,
  type SmsCallbacks,
} from '../../fakes/hubtel-sms.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';

// Texts to a production order's recipient through the courier flow, sent to Hubtel's fake; the
// fake's reports and inbound texts back; the cost on the partner's wallet statement.
const SECRET = 'sms-callback-secret-0123456789';
const DROPOFF = { lat: 5.556, lng: -0.182 };
let fake: FakeHubtelSms;
let callbacks: SmsCallbacks;
let p: TestPlatform;
let s: PartnerSetup;
let now = Date.now();
let phones = 0;

beforeAll(async () => {
  fake = await startFakeHubtelSms();
  p = await startPlatform({
    clock: () => now,
    env: {
      SMS_PROVIDER: 'hubtel',
      HUBTEL_SMS_URL: fake.url,
      HUBTEL_SMS_CLIENT_ID: fake.clientId,
      HUBTEL_SMS_CLIENT_SECRET: fake.clientSecret,
      SMS_SENDER_ID: 'PartnerGH',
      SMS_CALLBACK_SECRET: SECRET,
      RECIPIENT_SMS_PESEWAS_PER_SEGMENT: '5',
      MESSAGES_POLL_MS: '100',
    },
  });
  callbacks = smsCallbacks(p.url, SECRET);
  s = await createPartner(p, { environment: 'production' });
  const res = await s.client.send<any>('POST', '/api/v1/delivery/messages.settings.update', {
    body: {
      messages: { courier_near: true, delivered: true, delivery_failed: true },
      sender_name: 'KenteShop',
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});
afterAll(async () => {
  await p?.close();
  await fake?.close();
});

/** A fresh recipient: the local form the partner sends, and the digits Hubtel is sent. */
function recipient(): { local: string; digits: string } {
  const n = `${String(process.pid % 1000).padStart(3, '0')}${String(++phones).padStart(4, '0')}`;
  return { local: `027${n}`, digits: `23327${n}` };
}

async function order(setup: PartnerSetup, phone: string): Promise<string> {
  const res = await setup.client.send<any>('POST', '/api/v1/delivery/orders.create', {
    body: orderBody({ customer: { name: 'Ama Mensah', phone } }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.order_details.order_id;
}

const textsTo = (digits: string) => fake.messages.filter((m) => m.to === digits);
const messagesOf = (orderId: string) => p.app.platform.messages!.service.ofOrder(orderId);
const svc = () => p.app.platform.dispatch!.service;

/** A courier takes the order and carries it off (picked up, on its way). */
async function pickedUp(orderId: string) {
  const courier = await courierNear(p, 0, now);
  await svc().assign(orderId, courier.id);
  await svc().arrivedAtPickup(courier.id, orderId);
  await svc().pickedUp(courier.id, orderId);
  return courier;
}

describe('recipient messages through the courier flow', () => {
  it('texts the code at assignment, the courier near, and the delivery; each charged on the statement', async () => {
    const to = recipient();
    const id = await order(s, to.local);
    const courier = await pickedUp(id);
    const [assigned] = textsTo(to.digits);
    expect(assigned).toMatchObject({ from: 'KenteShop' });
    expect(assigned!.content).toMatch(/Delivery code: \d{4}\./);
    expect(assigned!.content).toContain(courier.name.split(' ')[0]);

    // Far away first: nothing; then 300 m off the drop-off, twice: one text.
    const report = (lat: number) => {
      now += 5_000; // a report no newer than the last is ignored
      return p.app.platform.couriers.reportPosition(courier.id, {
        lat,
        lng: DROPOFF.lng,
        at: new Date(now),
      });
    };
    await report(DROPOFF.lat + 0.05);
    await report(DROPOFF.lat + 0.0027);
    await report(DROPOFF.lat + 0.0025);
    await expect.poll(() => textsTo(to.digits).length).toBe(2);
    expect(textsTo(to.digits)[1]!.content).toMatch(/is nearly at your door/);

    await svc().arrived(courier.id, id);
    const { code } = await p.app.platform.proofs.issueCode(id, { rotate: true });
    await p.app.platform.proofs.verifyCode(id, code!, courier.id);
    await svc().delivered(courier.id, id);
    await expect.poll(() => textsTo(to.digits).length).toBe(3);
    expect(textsTo(to.digits)[2]!.content).toMatch(/has been delivered/);

    await expect
      .poll(async () => (await messagesOf(id)).map((m) => [m.kind, m.status, m.body]))
      .toEqual([
        ['assigned', 'sent', ''],
        ['courier_near', 'sent', ''],
        ['delivered', 'sent', ''],
      ]);
    const rows = await messagesOf(id);
    for (const m of rows) expect(m.cost_pesewas).toBe(5 * m.segments);
    const statement = await p.app.platform.wallet.service.statement(s.partnerId, { limit: 50 });
    const charged = statement.filter((e) => rows.some((m) => m.id === e.subject_id));
    expect(charged.map((e) => [e.kind, Number(e.amount_pesewas)])).toEqual(
      expect.arrayContaining(rows.map((m) => ['recipient_message', -m.cost_pesewas])),
    );
    expect(charged).toHaveLength(3);
  });

  it('reads little for a position report: nothing for the message while far, one look once near', async () => {
    const to = recipient();
    const id = await order(s, to.local);
    const courier = await pickedUp(id);
    const reads = async (lat: number): Promise<string[]> => {
      now += 5_000;
      const db = p.app.platform.db;
      const query = db.query.bind(db);
      const seen: string[] = [];
      // Only the report's own statements: the sender's and dispatch's loops run meanwhile.
      const mine = new AsyncLocalStorage<true>();
      db.query = ((sql: string, params?: readonly unknown[]) => {
        if (mine.getStore()) seen.push(sql);
        return query(sql, params);
      }) as typeof db.query;
      try {
        await mine.run(true, () =>
          p.app.platform.couriers.reportPosition(courier.id, {
            lat,
            lng: DROPOFF.lng,
            at: new Date(now),
          }),
        );
      } finally {
        db.query = query;
      }
      return seen;
    };
    const messageReads = (sqls: string[]) => sqls.filter((q) => /recipient_messages/.test(q));
    // The position, the courier's jobs, the courier, the order (then the trail's transaction).
    const far = await reads(DROPOFF.lat + 0.05);
    expect(far, far.join('\n----\n')).toHaveLength(4);
    expect(messageReads(far)).toEqual([]);
    await reads(DROPOFF.lat + 0.0025);
    await expect.poll(() => textsTo(to.digits).length).toBe(2);
    const texted = await reads(DROPOFF.lat + 0.002);
    expect(texted, texted.join('\n----\n')).toHaveLength(5);
    expect(messageReads(texted)).toHaveLength(1);
  });

  it('texts a failed attempt, once per attempt', async () => {
    const to = recipient();
    const id = await order(s, to.local);
    const courier = await pickedUp(id);
    await svc().couldNotDeliver(courier.id, id, 'recipient_absent');
    await expect.poll(() => textsTo(to.digits).length).toBe(2);
    expect(textsTo(to.digits)[1]!.content).toMatch(/could not deliver your parcel/);
    expect((await messagesOf(id)).map((m) => m.kind)).toEqual(['assigned', 'delivery_failed']);
  });

  it('retries a send the provider refused', async () => {
    const to = recipient();
    const id = await order(s, to.local);
    fake.failNext('500');
    await pickedUp(id);
    expect(textsTo(to.digits)).toEqual([]);
    const [queued] = await messagesOf(id);
    expect(queued).toMatchObject({ status: 'queued', attempts: 1 });
    now += 31_000;
    await expect.poll(async () => (await messagesOf(id))[0]!.status).toBe('sent');
    expect(textsTo(to.digits)).toHaveLength(1);
  });

  it('never messages a staging recipient, and never charges for one', async () => {
    const staging = await createPartner(p);
    const to = recipient();
    const id = await order(staging, to.local);
    now += 31_000;
    await p.app.platform.dispatch!.sandbox.tick();
    expect(await messagesOf(id)).toEqual([]);
    expect(textsTo(to.digits)).toEqual([]);
  });
});

describe('STOP, START and delivery reports from the provider', () => {
  it('skips every later message to a number that texted STOP, free, until it texts START', async () => {
    const to = recipient();
    expect(await callbacks.inbound(to.digits, 'STOP ALL')).toEqual({
      status: 200,
      body: { status: 'opted_out' },
    });
    const first = await order(s, to.local);
    await pickedUp(first);
    expect(textsTo(to.digits)).toEqual([]);
    const [skipped] = await messagesOf(first);
    expect(skipped).toMatchObject({ status: 'skipped', skip_reason: 'opted_out', cost_pesewas: 0 });
    const statement = await p.app.platform.wallet.service.statement(s.partnerId, { limit: 50 });
    expect(statement.some((e) => e.subject_id === skipped!.id)).toBe(false);

    expect((await callbacks.inbound(`+${to.digits}`, ' start ')).body).toEqual({
      status: 'opted_in',
    });
    const second = await order(s, to.local);
    await pickedUp(second);
    expect(textsTo(to.digits)).toHaveLength(1);
    expect((await callbacks.inbound(to.digits, 'Thank you!')).body).toEqual({ status: 'ignored' });
  });

  it('stores delivery reports on the message', async () => {
    const to = recipient();
    const id = await order(s, to.local);
    await pickedUp(id);
    const [sent] = await messagesOf(id);
    expect(sent!.provider_message_id).toBe(textsTo(to.digits)[0]!.messageId);
    expect((await callbacks.report(sent!.provider_message_id!, 'Sent')).status).toBe(200);
    expect((await messagesOf(id))[0]!.status).toBe('sent');
    expect((await callbacks.report(sent!.provider_message_id!, 'Delivered')).status).toBe(200);
    const [delivered] = await messagesOf(id);
    expect(delivered).toMatchObject({ status: 'delivered', reported_at: new Date(now) });
  });

  it('answers hostile callbacks 4xx with a code and writes nothing', async () => {
    const to = recipient();
    const id = await order(s, to.local);
    await pickedUp(id);
    const [sent] = await messagesOf(id);
    const messageId = sent!.provider_message_id!;
    const refusals: [Promise<{ status: number; body: any }>, number, string][] = [
      [
        callbacks.post('report', { MessageId: messageId, Status: 'Delivered' }, 'w'.repeat(30)),
        403,
        'FORBIDDEN',
      ],
      [
        callbacks.report('00000000-0000-0000-0000-000000000000', 'Delivered'),
        404,
        'MESSAGE_NOT_FOUND',
      ],
      [callbacks.report(`${messageId}\u0000`, 'Delivered'), 400, 'VALIDATION_ERROR'],
      [callbacks.report(messageId, 'Exploded'), 400, 'VALIDATION_ERROR'],
      [callbacks.post('report', { Status: 'Delivered' }), 400, 'MISSING_REQUIRED_FIELD'],
      [
        callbacks.post('inbound', { From: to.digits, Content: 'STOP' }, 'w'.repeat(30)),
        403,
        'FORBIDDEN',
      ],
      [callbacks.inbound(to.digits, 'STOP\u0007'), 400, 'VALIDATION_ERROR'],
      [callbacks.inbound('not-a-phone', 'STOP'), 400, 'VALIDATION_ERROR'],
      [callbacks.inbound(to.digits, 'S'.repeat(481)), 400, 'VALIDATION_ERROR'],
    ];
    for (const [call, status, code] of refusals) {
      const res = await call;
      expect([res.status, res.body.code]).toEqual([status, code]);
    }
    expect(await messagesOf(id)).toEqual([sent]);
    expect(await p.app.platform.messages!.service.optedOut(`+${to.digits}`)).toBe(false);
  });
});

// Last: it moves the clock hours on, past what signed requests allow.
describe('a message the provider keeps refusing', () => {
  it('is given up after its attempts, and its cost given back', async () => {
    const other = recipient();
    const given = await order(s, other.local);
    for (let i = 0; i < 5; i++) fake.failNext('500');
    await pickedUp(given);
    for (let attempt = 2; attempt <= 5; attempt++) {
      now += 31 * 60_000;
      await expect
        .poll(async () => {
          const [m] = await messagesOf(given);
          return [m!.attempts, m!.status];
        })
        .toEqual([attempt, attempt === 5 ? 'failed' : 'queued']);
    }
    const [failed] = await messagesOf(given);
    const statement = await p.app.platform.wallet.service.statement(s.partnerId, { limit: 50 });
    expect(
      statement
        .filter((e) => e.subject_id === failed!.id)
        .map((e) => [e.kind, Number(e.amount_pesewas)]),
    ).toEqual(
      expect.arrayContaining([
        ['recipient_message', -failed!.cost_pesewas],
        ['recipient_message_refund', failed!.cost_pesewas],
      ]),
    );
    expect(textsTo(other.digits)).toEqual([]);
  });
});
