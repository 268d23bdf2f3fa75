import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeHubtelSms, type FakeHubtelSms } from '../../fakes/hubtel-sms.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { enterCode, newPhone, requestCode, smsCode } from '../../helpers/courier.ts';
import { WebClient } from '../../helpers/web.ts';

let p: TestPlatform;
let now = Date.parse('2026-11-24T08:00:00Z');
beforeAll(async () => {
  p = await startPlatform({ socket: false, clock: () => now });
});
afterAll(() => p.close());
// Each test starts past the throttles' window of the one before (all requests come from 127.0.0.1).
beforeEach(() => {
  now += 16 * 60_000;
});

const courier = async (active = true) => {
  const phone = newPhone();
  const row = await p.app.platform.couriers.create({
    name: 'Abena Darko',
    phone,
    vehicle: 'motorbike',
  });
  if (!active) await p.app.platform.couriers.update(row.id, { active: false });
  return { id: row.id, phone };
};
const sessionsOf = async (id: string) =>
  (
    await p.app.platform.db.query(
      'select id_hash from web_sessions where subject_kind = $1 and subject_id = $2',
      ['courier', id],
    )
  ).length;
/** The page's text without what differs between any two requests (token, number). */
const shape = (html: string, phone: string) =>
  html
    .replace(/value="[^"]*"/g, '')
    .split(phone)
    .join('PHONE');

describe('courier sign-in with a one-time code', () => {
  it('sends a 6-digit code by SMS, stores only its hash, and signs in with a fresh HttpOnly Lax session', async () => {
    const { id, phone } = await courier();
    const web = new WebClient(p);
    web.cookies.set('pp_courier', 'planted-by-an-attacker-0123456789');
    const asked = await requestCode(web, phone);
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('a 6-digit code is on its way');
    const code = (await smsCode(p, phone))!;
    expect(code).toMatch(/^\d{6}$/);
    const stored = await p.app.platform.db.query<{ code_hash: string }>(
      'select code_hash from courier_sign_in_codes where phone = $1',
      [phone],
    );
    expect(stored[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(code);

    const res = await enterCode(web, phone, code);
    expect([res.status, res.location]).toEqual([303, '/courier/']);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('pp_courier='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // http here; Secure when PUBLIC_BASE_URL is https
    expect(web.cookies.get('pp_courier')).not.toBe('planted-by-an-attacker-0123456789');
    expect(await sessionsOf(id)).toBe(1);
    const home = await web.get('/courier/');
    expect(home.text).toContain('Hello, Abena Darko');

    const out = await web.post('/courier/sign-out', {
      _csrf: /data-csrf="([^"]+)"/.exec(home.text)![1]!,
    });
    expect(out.location).toBe('/courier/sign-in');
    expect(await sessionsOf(id)).toBe(0);
    expect((await web.get('/courier/')).location).toBe('/courier/sign-in');
  });

  it('refuses a wrong code, and a code used once', async () => {
    const { phone } = await courier();
    const web = new WebClient(p);
    await requestCode(web, phone);
    const code = (await smsCode(p, phone))!;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const refused = await enterCode(web, phone, wrong);
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('That code is wrong or has expired');
    expect(web.cookies.has('pp_courier')).toBe(false);
    expect((await enterCode(web, phone, code)).status).toBe(303);
    const again = new WebClient(p);
    await again.get('/courier/sign-in');
    expect((await enterCode(again, phone, code)).status).toBe(401);
  });

  it('makes a code worthless after 5 wrong tries', async () => {
    const { phone } = await courier();
    const web = new WebClient(p);
    await requestCode(web, phone);
    const code = (await smsCode(p, phone))!;
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) expect((await enterCode(web, phone, wrong)).status).toBe(401);
    expect((await enterCode(web, phone, code)).status).toBe(401);
  });

  it('makes a code worthless after 5 minutes', async () => {
    const { phone } = await courier();
    const web = new WebClient(p);
    await requestCode(web, phone);
    const code = (await smsCode(p, phone))!;
    now += 5 * 60_000 + 1000;
    expect((await enterCode(web, phone, code)).status).toBe(401);
  });

  it('answers alike for a courier, a stranger and a deactivated courier; only the active courier gets a text', async () => {
    const active = await courier();
    const inactive = await courier(false);
    const stranger = newPhone();
    const pages = [];
    for (const phone of [active.phone, inactive.phone, stranger]) {
      const res = await requestCode(new WebClient(p), phone);
      pages.push({ status: res.status, shape: shape(res.text, phone) });
    }
    expect(pages[1]).toEqual(pages[0]);
    expect(pages[2]).toEqual(pages[0]);
    expect(await smsCode(p, active.phone)).toBeDefined();
    expect(await smsCode(p, inactive.phone)).toBeUndefined();
    expect(await smsCode(p, stranger)).toBeUndefined();
  });

  it('throttles per phone (a stranger alike) and per address, saying when to retry', async () => {
    const { phone } = await courier();
    const stranger = newPhone();
    for (const number of [phone, stranger]) {
      for (let i = 0; i < 3; i++)
        expect((await requestCode(new WebClient(p), number)).status).toBe(200);
      const limited = await requestCode(new WebClient(p), number);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.text).toContain('Too many codes');
    }
    now += 16 * 60_000;
    for (let i = 0; i < 20; i++)
      expect((await requestCode(new WebClient(p), newPhone())).status).toBe(200);
    expect((await requestCode(new WebClient(p), newPhone())).status).toBe(429);
  });

  it('refuses bad numbers and forged forms without recording anything', async () => {
    const before = (await p.app.platform.db.query('select id from courier_sign_in_codes')).length;
    const web = new WebClient(p);
    for (const phone of ['12345', '024\u00001234567', '9'.repeat(20)])
      expect((await requestCode(web, phone)).status).toBe(400);
    expect((await web.post('/courier/sign-in', { phone: newPhone() })).status).toBe(403);
    expect(
      (
        await web.post(
          '/courier/sign-in',
          { _csrf: web.cookies.get('pp_form')!, phone: newPhone() },
          { origin: 'https://evil.example' },
        )
      ).status,
    ).toBe(403);
    expect((await p.app.platform.db.query('select id from courier_sign_in_codes')).length).toBe(
      before,
    );
  });

  it("ends a courier's sessions when an operator deactivates them, and a deactivated courier cannot use a code sent before", async () => {
    const { id, phone } = await courier();
    const web = new WebClient(p);
    await requestCode(web, phone);
    expect((await enterCode(web, phone, (await smsCode(p, phone))!)).status).toBe(303);
    expect((await web.get('/courier/')).status).toBe(200);
    expect((await p.admin('PATCH', `/couriers/${id}`, { active: false })).status).toBe(200);
    expect(await sessionsOf(id)).toBe(0);
    expect((await web.get('/courier/')).location).toBe('/courier/sign-in');

    const other = await courier();
    const web2 = new WebClient(p);
    await requestCode(web2, other.phone);
    const code = (await smsCode(p, other.phone))!;
    await p.app.platform.couriers.update(other.id, { active: false });
    expect((await enterCode(web2, other.phone, code)).status).toBe(401);
  });
});

describe('courier sign-in through Hubtel SMS', () => {
  let fake: FakeHubtelSms;
  let hp: TestPlatform;
  beforeAll(async () => {
    fake = await startFakeHubtelSms();
    hp = await startPlatform({
      socket: false,
      env: {
        SMS_PROVIDER: 'hubtel',
        HUBTEL_SMS_CLIENT_ID: fake.clientId,
        HUBTEL_SMS_CLIENT_SECRET: fake.clientSecret,
        SMS_SENDER_ID: 'Couriers',
        HUBTEL_SMS_URL: fake.url,
      },
    });
  });
  afterAll(async () => {
    await hp?.close();
    await fake?.close();
  });

  it('sends the code through the provider, keeps no development outbox, and signs in with it', async () => {
    const phone = newPhone();
    await hp.app.platform.couriers.create({ name: 'Efua Quaye', phone, vehicle: 'car' });
    const web = new WebClient(hp);
    await requestCode(web, phone);
    await hp.app.platform.courierSignIn.settled();
    const sent = fake.messages.find((m) => m.to === phone.slice(1))!;
    expect(sent.from).toBe('Couriers');
    expect(hp.app.platform.sms.outbox).toBeUndefined();
    expect((await hp.fetch(`${hp.url}/dev/sms`)).status).toBe(404);
    expect((await enterCode(web, phone, /\d{6}/.exec(sent.content)![0])).status).toBe(303);
  });

  it('still answers the courier when the provider fails (the failure is logged), and the code is not usable without the text', async () => {
    const phone = newPhone();
    await hp.app.platform.couriers.create({ name: 'Efua Quaye', phone, vehicle: 'car' });
    fake.failNext('500');
    const res = await requestCode(new WebClient(hp), phone);
    expect(res.status).toBe(200);
    await hp.app.platform.courierSignIn.settled();
    expect(fake.messages.some((m) => m.to === phone.slice(1))).toBe(false);
  });
});

describe('courier sign-in behind https', () => {
  const ORIGIN = 'https://couriers.example.gh';
  let sp: TestPlatform;
  beforeAll(async () => {
    sp = await startPlatform({ socket: false, env: { PUBLIC_BASE_URL: ORIGIN } });
  });
  afterAll(() => sp?.close());

  it('marks the session cookie Secure', async () => {
    const phone = newPhone();
    await sp.app.platform.couriers.create({ name: 'Adjoa Mensah', phone, vehicle: 'van' });
    const web = new WebClient(sp);
    await web.get('/courier/sign-in');
    const token = web.cookies.get('pp_form')!;
    expect(
      (await web.post('/courier/sign-in', { _csrf: token, phone }, { origin: ORIGIN })).status,
    ).toBe(200);
    const res = await web.post(
      '/courier/sign-in/code',
      { _csrf: token, phone, code: (await smsCode(sp, phone))! },
      { origin: ORIGIN },
    );
    expect(res.status).toBe(303);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('pp_courier='))).toMatch(/; Secure/);
  });
});
