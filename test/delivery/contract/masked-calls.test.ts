import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_TEXT, callCode } from '../../../src/modules/delivery/tracking/masked-calls.ts';
import { courierNear } from '../../dispatch/helpers.ts';
import { placeCall } from '../../fakes/africastalking-voice.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { orderBody } from '../fixtures.ts';

const SECRET = 'voice-test-secret-0123456789abcdef';
const NUMBER = '+233302123456';
let p: TestPlatform;
let plain: TestPlatform;
let s: PartnerSetup;
let callbackUrl: string;

beforeAll(async () => {
  [p, plain] = await Promise.all([
    startPlatform({
      env: { CALL_MASKING_NUMBER: '+233 30 212 3456', VOICE_CALLBACK_SECRET: SECRET },
    }),
    startPlatform(),
  ]);
  s = await createPartner(p, { environment: 'production' });
  callbackUrl = `${p.url}/voice/africastalking/${SECRET}`;
});
afterAll(() => Promise.all([p.close(), plain.close()]));

/** A fresh recipient per test: the per-phone call limit is shared (and kept in Redis across runs). */
const newPhone = () => `+23324${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

/** A production order to `phone`, and its tracking page's path. */
async function placeOrder(phone: string) {
  const created = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
    body: orderBody({ customer: { name: 'Ama Mensah', phone } }),
  });
  expect(created.status).toBe(201);
  const { order_id: id, tracking_url } = created.body.data.order_details ?? created.body.data;
  return {
    id: id as string,
    page: new URL(tracking_url ?? created.body.data.tracking_url).pathname,
  };
}

/** Gives the order to a new courier who has reported where they are (the page shows them then). */
async function withCourier(id: string) {
  const courier = await courierNear(p, 1, Date.now());
  await p.app.platform.dispatch!.service.assign(id, courier.id);
  await p.app.platform.couriers.reportPosition(courier.id, {
    lat: 5.56,
    lng: -0.2,
    at: new Date(),
  });
  return courier;
}

const call = (callerNumber: string, keys?: string) =>
  placeCall(callbackUrl, { callerNumber, destinationNumber: NUMBER, keys });

describe('masked calls between a recipient and their courier', () => {
  it('the tracking page offers the call once a courier has the order; the call reaches that courier with our number shown', async () => {
    const phone = newPhone();
    const { id, page } = await placeOrder(phone);
    const before = await (await p.fetch(`${p.url}${page}`)).text();
    expect(before).not.toContain('Call your courier');
    const courier = await withCourier(id);
    const html = await (await p.fetch(`${p.url}${page}`)).text();
    const code = callCode(SECRET, id);
    expect(code).toMatch(/^\d{6}$/);
    expect(html).toContain(
      `<a class="call-button" href="tel:${NUMBER},,${code}%23">Call your courier</a>`,
    );
    expect(html).not.toContain(courier.phone);

    const connected = await call(phone, code);
    expect(connected.statuses.every((st) => st === 200)).toBe(true);
    expect(connected.askedForDigits).toBe(true);
    expect(connected.said).toEqual([CALL_TEXT.ask, CALL_TEXT.connecting]);
    expect(connected.dialled).toEqual({ phoneNumbers: courier.phone, callerId: NUMBER });
  });

  it('connects nobody for another phone, a wrong code, an order without a courier or one delivered', async () => {
    const phone = newPhone();
    const { id } = await placeOrder(phone);
    const code = callCode(SECRET, id);
    const waiting = await call(phone, code);
    expect([waiting.said.at(-1), waiting.dialled]).toEqual([CALL_TEXT.noCourier, undefined]);
    await withCourier(id);
    for (const [caller, keys] of [
      [newPhone(), code],
      [phone, String((Number(code) + 1) % 1_000_000).padStart(6, '0')],
      [phone, '12'],
      [phone, '#*'],
    ] as const) {
      const refused = await call(caller, keys);
      expect([refused.said.at(-1), refused.dialled]).toEqual([CALL_TEXT.notFound, undefined]);
    }
    await p.admin('POST', `/delivery/orders/${id}/status`, { status: 'cancelled' });
    const ended = await call(phone, code);
    expect([ended.said.at(-1), ended.dialled]).toEqual([CALL_TEXT.notFound, undefined]);
  });

  it('asks for the code, and says so when none was keyed in', async () => {
    const silent = await call(newPhone());
    expect(silent.said).toEqual([CALL_TEXT.ask, CALL_TEXT.noDigits]);
    const res = await fetch(callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ isActive: '1', sessionId: 'v1', callerNumber: newPhone() }),
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(await res.text()).toContain(`callbackUrl="${callbackUrl}"`);
  });

  it('limits calls per phone', async () => {
    const phone = newPhone();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await call(phone, '000000')).said.at(-1));
    expect(answers.slice(0, 5).every((a) => a === CALL_TEXT.notFound)).toBe(true);
    expect(answers[5]).toBe(CALL_TEXT.limited);
  });

  it('refuses a wrong secret and hostile input with a code, and has no route or button without the settings', async () => {
    const post = (url: string, body: string, type = 'application/x-www-form-urlencoded') =>
      fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
    const wrong = await post(
      `${p.url}/voice/africastalking/${'x'.repeat(34)}`,
      'sessionId=a&callerNumber=1',
    );
    expect([wrong.status, (await wrong.json()).code]).toEqual([403, 'FORBIDDEN']);
    for (const [body, code] of [
      ['sessionId=a&callerNumber=%2B233241234567&dtmfDigits=12%0034', 'VALIDATION_ERROR'],
      [`sessionId=a&callerNumber=%2B233241234567&dtmfDigits=${'1'.repeat(33)}`, 'VALIDATION_ERROR'],
      ['sessionId=a&callerNumber=%2B233241234567&isActive=11', 'VALIDATION_ERROR'],
      ['sessionId=a&sessionId=b&callerNumber=%2B233241234567', 'VALIDATION_ERROR'],
      ['sessionId=&callerNumber=%2B233241234567', 'MISSING_REQUIRED_FIELD'],
      ['sessionId=a', 'MISSING_REQUIRED_FIELD'],
    ]) {
      const res = await post(callbackUrl, body!);
      expect([res.status, (await res.json()).code], body).toEqual([400, code]);
    }
    const json = await post(callbackUrl, '{"sessionId":"a"}', 'application/json');
    expect(json.status).toBe(415);

    expect((await post(`${plain.url}/voice/africastalking/${SECRET}`, 'sessionId=a')).status).toBe(
      404,
    );
    const other = await createPartner(plain, { environment: 'production' });
    const created = await other.client.send<any>('POST', '/api/v1/delivery/orders.create', {
      body: orderBody(),
    });
    const id = created.body.data.order_details.order_id;
    const courier = await courierNear(plain, 1, Date.now());
    await plain.app.platform.dispatch!.service.assign(id, courier.id);
    await plain.app.platform.couriers.reportPosition(courier.id, {
      lat: 5.56,
      lng: -0.2,
      at: new Date(),
    });
    const page = await (await fetch(created.body.data.order_details.tracking_url)).text();
    expect(page).toContain('Your courier');
    expect(page).not.toContain('Call your courier');
  });
});
