import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { fakeUssdGateway, postUssdCallback } from '../../fakes/africastalking-ussd.ts';
import { orderBody } from '../fixtures.ts';

const SECRET = 'ussd-test-secret-0123456789abcdef';
let p: TestPlatform;
let plain: TestPlatform;
let s: PartnerSetup;
let callbackUrl: string;
let gateway: ReturnType<typeof fakeUssdGateway>;

beforeAll(async () => {
  [p, plain] = await Promise.all([
    startPlatform({ env: { USSD_CALLBACK_SECRET: SECRET } }),
    startPlatform(),
  ]);
  s = await createPartner(p);
  callbackUrl = `${p.url}/ussd/africastalking/${SECRET}`;
  gateway = fakeUssdGateway({ callbackUrl });
});
afterAll(() => Promise.all([p.close(), plain.close()]));

/** A fresh recipient number per test: the per-phone limit is shared (and kept in Redis across runs). */
const newPhone = () => `+23324${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

async function placeOrder(phone: string, reference = `ORD-${randomInt(100_000, 999_999)}`) {
  const created = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
    body: orderBody({ order_reference: reference, customer: { name: 'Ama Mensah', phone } }),
  });
  expect(created.status).toBe(201);
  return { id: created.body.data.order_details.order_id as string, reference };
}

const move = async (id: string, ...statuses: string[]) => {
  for (const status of statuses)
    expect((await p.admin('POST', `/delivery/orders/${id}/status`, { status })).status).toBe(200);
};

async function track(phone: string, code: string) {
  const session = gateway.session(phone);
  const menu = await session.dial();
  expect(menu).toMatchObject({ status: 200, kind: 'CON' });
  expect(menu.text).toBe('Track a delivery: enter your order code');
  return session.reply(code);
}

const eventCount = async () =>
  Number(
    (
      await p.app.platform.db.query<{ n: string }>(
        'select count(*) as n from delivery_order_events',
      )
    )[0]!.n,
  );

const NOT_FOUND =
  'We found no delivery with that code for this phone number. Check the code and dial again.';

describe("USSD tracking (Africa's Talking callback)", () => {
  it('shows the state and the expected time of an order under way, on one plain ASCII screen', async () => {
    const phone = newPhone();
    const { id, reference } = await placeOrder(phone);
    await move(id, 'accepted');
    const before = await eventCount();
    const res = await fetch(callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        sessionId: 's1',
        serviceCode: '*384*1#',
        phoneNumber: phone,
        text: '',
      }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/^CON /);

    const screen = await track(phone, reference);
    expect(screen).toMatchObject({ status: 200, kind: 'END' });
    expect(screen.text).toContain(`Order ${reference}:`);
    expect(screen.text).toContain('A courier has accepted the order');
    expect(screen.text).toMatch(/Expected by \w{3} \d{1,2} \w{3}, \d{2}:\d{2} \(Accra time\)\./);
    expect(screen.body.length).toBeLessThanOrEqual(182);
    expect(screen.body).toMatch(/^[\x20-\x7e]+$/);
    expect(await eventCount()).toBe(before);
  });

  it('matches the code without case or punctuation, and takes it dialled with the service code', async () => {
    const phone = newPhone();
    const { reference } = await placeOrder(phone);
    const loose = await track(phone, reference.toLowerCase().replace('-', ''));
    expect(loose.text).toContain(`Order ${reference}: The order has been placed`);
    // *384*1234*ORD123456# arrives as a first callback whose text is the code.
    const direct = await gateway.session(phone).dial(reference);
    expect(direct.kind).toBe('END');
    expect(direct.text).toContain(`Order ${reference}:`);
  });

  it('says a delivered order was delivered, with no expected time', async () => {
    const phone = newPhone();
    const { id, reference } = await placeOrder(phone);
    await move(id, 'accepted', 'pickedUp', 'in_transit', 'delivered');
    const screen = await track(phone, reference);
    expect(screen.kind).toBe('END');
    expect(screen.text).toBe(
      `Order ${reference}: The package has been delivered to the recipient.`,
    );
  });

  it('answers the same for a wrong code and for a phone that is not the recipient', async () => {
    const phone = newPhone();
    const { reference } = await placeOrder(phone);
    const wrongCode = await track(phone, 'ORD000000');
    const wrongPhone = await track(newPhone(), reference);
    const notGhana = await track('+441632960000', reference);
    for (const screen of [wrongCode, wrongPhone, notGhana])
      expect(screen).toMatchObject({ status: 200, kind: 'END', text: NOT_FOUND });
  });

  it('limits lookups per phone across sessions and per session', async () => {
    const phone = newPhone();
    const { reference } = await placeOrder(phone);
    for (let i = 0; i < 5; i++) expect((await track(phone, `WRONG${i}`)).text).toBe(NOT_FOUND);
    const limited = await track(phone, reference);
    expect(limited.text).toBe('Too many attempts. Please try again in a few minutes.');
    // One session replaying lookups (each from another phone) is stopped after three.
    const sessionId = `ATUid_${randomUUID()}`;
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(
        (
          await postUssdCallback(callbackUrl, {
            sessionId,
            serviceCode: '*384#',
            phoneNumber: newPhone(),
            text: 'X1',
          })
        ).text,
      );
    expect(answers).toEqual([
      NOT_FOUND,
      NOT_FOUND,
      NOT_FOUND,
      'Too many attempts. Please try again in a few minutes.',
    ]);
  });
});

describe('USSD sessions out of order and hostile callbacks', () => {
  const form = (over: Record<string, string> = {}) => ({
    sessionId: `ATUid_${randomUUID()}`,
    serviceCode: '*384*1234#',
    phoneNumber: '+233241234567',
    text: '',
    ...over,
  });

  it('ends a session that sends more steps than the menu has, or an empty step after the code', async () => {
    const phone = newPhone();
    const { reference } = await placeOrder(phone);
    const extra = await postUssdCallback(
      callbackUrl,
      form({ phoneNumber: phone, text: `${reference}*1*2` }),
    );
    expect(extra).toMatchObject({
      status: 200,
      kind: 'END',
      text: 'Please dial again and enter only your order code.',
    });
    const session = gateway.session(phone);
    await session.dial(reference);
    // The handset will not send more after END; a gateway replaying the session gets the same answer.
    const replayed = await postUssdCallback(
      callbackUrl,
      form({ sessionId: session.sessionId, phoneNumber: phone, text: `${reference}*` }),
    );
    expect(replayed.kind).toBe('END');
    expect(replayed.text).toBe('Please dial again and enter only your order code.');
    const blank = await postUssdCallback(callbackUrl, form({ phoneNumber: phone, text: '*' }));
    expect(blank.kind).toBe('END');
    const punctuation = await postUssdCallback(
      callbackUrl,
      form({ phoneNumber: phone, text: '#-#' }),
    );
    expect(punctuation.text).toBe(
      'No code was entered. Please dial again and enter your order code.',
    );
  });

  it('shows the menu again for an empty step on a later callback, and answers an unseen session with a code as a lookup', async () => {
    const session = gateway.session(newPhone());
    await session.dial();
    const again = await session.reply('');
    expect(again.kind).toBe('CON');
    // No state is kept between callbacks (the text carries the session): an unseen session with a
    // code is an ordinary lookup, counted by the same limits.
    const unseen = await postUssdCallback(
      callbackUrl,
      form({ phoneNumber: newPhone(), text: 'ORD1' }),
    );
    expect(unseen).toMatchObject({ status: 200, kind: 'END', text: NOT_FOUND });
  });

  it('refuses malformed callbacks with 4xx and a code, writing nothing', async () => {
    const before = await eventCount();
    const cases: Array<[Record<string, string>, number, string]> = [
      [form({ text: 'ORD\u00001' }), 400, 'VALIDATION_ERROR'],
      [form({ sessionId: 'a\u0007b' }), 400, 'VALIDATION_ERROR'],
      [form({ phoneNumber: '+23324\u001b1234567' }), 400, 'VALIDATION_ERROR'],
      [form({ text: 'A'.repeat(5000) }), 400, 'VALIDATION_ERROR'],
      [form({ sessionId: 'x'.repeat(129) }), 400, 'VALIDATION_ERROR'],
      [form({ phoneNumber: '' }), 400, 'MISSING_REQUIRED_FIELD'],
      [form({ sessionId: '' }), 400, 'MISSING_REQUIRED_FIELD'],
      [form({ text: 'A'.repeat(100_000) }), 413, 'PAYLOAD_TOO_LARGE'],
    ];
    for (const [fields, status, code] of cases) {
      const res = await postUssdCallback(callbackUrl, fields);
      expect(res.status, JSON.stringify(fields).slice(0, 80)).toBe(status);
      expect(JSON.parse(res.body).code).toBe(code);
    }
    const json = await postUssdCallback(callbackUrl, form(), 'application/json');
    expect(json.status).toBe(415);
    expect(await eventCount()).toBe(before);
  });

  it('answers 403 for a wrong secret and 404 when no secret is configured', async () => {
    const wrong = await postUssdCallback(
      `${p.url}/ussd/africastalking/${SECRET.slice(0, -1)}x`,
      form(),
    );
    expect(wrong.status).toBe(403);
    expect(JSON.parse(wrong.body).code).toBe('FORBIDDEN');
    const none = await postUssdCallback(`${plain.url}/ussd/africastalking/${SECRET}`, form());
    expect(none.status).toBe(404);
  });
});
