import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../fakes/whatsapp.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { textsTo } from '../../helpers/outbox-read.ts';
import { courierNear } from '../helpers.ts';

// The recipient's delivery code at dispatch: by SMS always (the development outbox here), and by
// WhatsApp (Meta's Cloud API, the fake) when configured; WhatsApp never holds up either.
let fake: FakeWhatsApp;
let p: TestPlatform;
let production: PartnerSetup;
let staging: PartnerSetup;
let now = Date.now();
let phones = 0;

beforeAll(async () => {
  fake = await startFakeWhatsApp();
  p = await startPlatform({
    clock: () => now,
    env: {
      WHATSAPP_PROVIDER: 'meta',
      WHATSAPP_API_URL: fake.url,
      WHATSAPP_PHONE_NUMBER_ID: fake.phoneNumberId,
      WHATSAPP_ACCESS_TOKEN: fake.accessToken,
      WHATSAPP_TEMPLATE: fake.template,
      WHATSAPP_TIMEOUT_MS: '300',
    },
  });
  production = await createPartner(p, { environment: 'production' });
  staging = await createPartner(p);
});
afterAll(async () => {
  await p?.close();
  await fake?.close();
});

/** A fresh recipient number per order (local form, and the E.164 digits WhatsApp is sent). */
function recipient(): { local: string; digits: string } {
  const n = `${String(process.pid % 1000).padStart(3, '0')}${String(++phones).padStart(4, '0')}`;
  return { local: `026${n}`, digits: `23326${n}` };
}

async function orderFor(s: PartnerSetup, phone: string): Promise<string> {
  const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
    body: orderBody({ customer: { name: 'Ama Mensah', phone } }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.order_details.order_id;
}

/** The delivery codes texted to `digits`. */
async function textedCodes(platform: TestPlatform, digits: string): Promise<string[]> {
  return (await textsTo(platform, `+${digits}`)).map(
    (r) => /Delivery code: (\d{4})\./.exec(r.body)![1]!,
  );
}

const sentTo = (digits: string) => fake.requests.filter((r: any) => r.to === digits);

async function dispatchTo(orderId: string): Promise<{ status: string }> {
  const courier = await courierNear(p, 0, now);
  return p.app.platform.dispatch!.service.assign(orderId, courier.id);
}

describe('the delivery code at dispatch, by SMS and WhatsApp', () => {
  it('goes by both channels: the same code in the SMS (with the tracking link) and in the WhatsApp template', async () => {
    const to = recipient();
    const id = await orderFor(production, to.local);
    await dispatchTo(id);
    const [code] = await textedCodes(p, to.digits);
    expect(code).toMatch(/^\d{4}$/);
    const { tracking_url } = (
      await production.client.send<any>('POST', '/api/v1/delivery/orders.get', {
        body: { order_id: id },
      })
    ).body.data;
    const [sms] = await textsTo(p, `+${to.digits}`);
    expect(sms!.body).toContain(tracking_url);
    expect(fake.messages.filter((m) => m.to === to.digits)).toEqual([
      {
        id: expect.stringMatching(/^wamid\./),
        to: to.digits,
        template: 'delivery_code',
        language: 'en',
        code,
      },
    ]);
    expect(sentTo(to.digits)).toHaveLength(1);
  });

  it('still texts, and the dispatch stands, when the recipient is not on WhatsApp', async () => {
    const to = recipient();
    fake.notOnWhatsApp.add(to.digits);
    const id = await orderFor(production, to.local);
    expect(await dispatchTo(id)).toMatchObject({ status: 'accepted' });
    expect(await textedCodes(p, to.digits)).toHaveLength(1);
    expect(sentTo(to.digits)).toHaveLength(1);
    expect(fake.messages.some((m) => m.to === to.digits)).toBe(false);
    expect(
      await p.app.platform.proofs.verifyCode(id, (await textedCodes(p, to.digits))[0]!),
    ).toBeUndefined();
  });

  it.each(['timeout', '500', 'rate_limit'] as const)(
    'still texts after a WhatsApp %s, tried once',
    async (kind) => {
      const to = recipient();
      const id = await orderFor(production, to.local);
      fake.failNext(kind);
      expect(await dispatchTo(id)).toMatchObject({ status: 'accepted' });
      expect(await textedCodes(p, to.digits)).toHaveLength(1);
      expect(sentTo(to.digits)).toHaveLength(1);
    },
  );

  it('never messages a staging recipient, by either channel', async () => {
    const to = recipient();
    const id = await orderFor(staging, to.local);
    now += 31_000;
    await p.app.platform.dispatch!.sandbox.tick();
    const held = await p.app.platform.db.query(
      'select 1 from dispatch_assignments where order_id = $1',
      [id],
    );
    expect(held).toHaveLength(1);
    expect(await textedCodes(p, to.digits)).toEqual([]);
    expect(sentTo(to.digits)).toEqual([]);
  });
});

describe('the delivery code without WHATSAPP_PROVIDER', () => {
  let plain: TestPlatform;
  beforeAll(async () => {
    plain = await startPlatform({ env: { WHATSAPP_API_URL: fake.url } });
  });
  afterAll(() => plain?.close());

  it('goes by SMS only', async () => {
    const s = await createPartner(plain, { environment: 'production' });
    const to = recipient();
    const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
      body: orderBody({ customer: { name: 'Ama Mensah', phone: to.local } }),
    });
    const courier = await courierNear(plain, 0, Date.now());
    await plain.app.platform.dispatch!.service.assign(
      res.body.data.order_details.order_id,
      courier.id,
    );
    expect(await textedCodes(plain, to.digits)).toHaveLength(1);
    expect(sentTo(to.digits)).toEqual([]);
  });
});
