import { PassThrough } from 'node:stream';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionId } from '../../../src/modules/sessions/index.ts';
import { productionOrder } from '../../dispatch/helpers.ts';
import { startFakePushService, type FakePushService } from '../../fakes/push-service.ts';
import { newPhone, signedInCourier } from '../../helpers/courier.ts';
import {
  createPartner,
  onPostgres,
  startPlatform,
  useTwoInstances,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { WebClient } from '../../helpers/web.ts';

type Courier = Awaited<ReturnType<typeof signedInCourier>>;
const URL_PATH = '/courier/push-subscription';
const POLL = { timeout: 10_000 };

const send = (c: Pick<Courier, 'web' | 'csrf'>, method: string, body?: unknown, csrf = c.csrf) =>
  c.web.request(method, URL_PATH, {
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', origin: c.web.base, 'x-csrf-token': csrf },
  });
const stored = (p: TestPlatform, web: WebClient) =>
  p.app.platform.db.query<{ endpoint: string; courier_id: string; session_hash: string }>(
    'select endpoint, courier_id, session_hash from courier_push_subscriptions where session_hash = $1',
    [hashSessionId(web.cookies.get('pp_courier')!)],
  );
const keysOf = async (service: FakePushService, publicKey: string) => {
  const sub = await service.subscribe(publicKey);
  return { sub, body: { endpoint: sub.endpoint, keys: sub.keys } };
};

describe("the courier app's Web Push subscription and offer pushes", () => {
  let p: TestPlatform;
  let s: PartnerSetup;
  let service: FakePushService;
  let publicKey: string;
  const logged: string[] = [];
  beforeAll(async () => {
    const logStream = new PassThrough();
    logStream.on('data', (c: Buffer) => logged.push(...c.toString().split('\n').filter(Boolean)));
    [p, service] = await Promise.all([
      startPlatform({ env: { LOG_LEVEL: 'warn' }, logStream }),
      startFakePushService(),
    ]);
    s = await createPartner(p, { environment: 'production' });
    const home = await (await signedInCourier(p, 'Key Reader')).web.get('/courier/');
    publicKey = /data-push-key="([^"]+)"/.exec(home.text)![1]!;
  });
  afterAll(async () => {
    await p?.close();
    await service?.close();
  });

  it('makes a key pair at boot on a development server without VAPID keys, and warns of it', () => {
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(logged.filter((l) => l.includes('web push: no VAPID keys configured'))).toHaveLength(1);
  });

  it('refuses a request without a session, without the CSRF token or with another courier’s, and one that is no JSON', async () => {
    const a = await signedInCourier(p, 'Ama Push');
    const b = await signedInCourier(p, 'Kofi Push');
    const { body } = await keysOf(service, publicKey);
    const anon = { web: new WebClient(p), csrf: '' };
    expect((await send(anon, 'POST', body)).status).toBe(401);
    expect(JSON.parse((await send(a, 'POST', body, '')).text).code).toBe('CSRF_FAILED');
    expect((await send(a, 'POST', body, b.csrf)).status).toBe(403);
    expect((await send(a, 'DELETE', undefined, b.csrf)).status).toBe(403);
    const form = await a.web.request('POST', URL_PATH, {
      body: 'endpoint=x',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: p.url,
        'x-csrf-token': a.csrf,
      },
    });
    expect(form.status).toBe(415);
    expect(await stored(p, a.web)).toEqual([]);
  });

  it('refuses hostile input with a 4xx and a code: huge, malformed or non-http endpoints, bad keys, a huge body', async () => {
    const a = await signedInCourier(p, 'Esi Hostile');
    const { body } = await keysOf(service, publicKey);
    for (const endpoint of [
      `${body.endpoint}?${'a'.repeat(2000)}`,
      'not a url',
      'javascript:alert(1)',
      'file:///etc/passwd',
      42,
    ]) {
      const r = await send(a, 'POST', { ...body, endpoint });
      expect([r.status, JSON.parse(r.text).code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    const badKeys = await send(a, 'POST', {
      ...body,
      keys: { p256dh: 'AAAA', auth: body.keys.auth },
    });
    expect(badKeys.status).toBe(400);
    expect((await send(a, 'POST', '{"endpoint":')).status).toBe(400);
    const huge = await send(a, 'POST', { ...body, pad: 'x'.repeat(200_000) });
    expect([huge.status, JSON.parse(huge.text).code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(await stored(p, a.web)).toEqual([]);
  });

  it('keeps one subscription per session, only ever the session’s own: another courier can neither take its endpoint nor remove it', async () => {
    const a = await signedInCourier(p, 'Yaw Owner');
    const b = await signedInCourier(p, 'Adjoa Thief');
    const { body } = await keysOf(service, publicKey);
    const saved = await send(a, 'POST', body);
    expect([saved.status, JSON.parse(saved.text)]).toEqual([200, { result: 'subscribed' }]);
    expect(await stored(p, a.web)).toMatchObject([{ endpoint: body.endpoint, courier_id: a.id }]);
    const taken = await send(b, 'POST', body);
    expect([taken.status, JSON.parse(taken.text).code]).toEqual([409, 'PUSH_ENDPOINT_TAKEN']);
    expect(JSON.parse((await send(b, 'DELETE')).text)).toEqual({ result: 'none' });
    expect(await stored(p, a.web)).toHaveLength(1);
    // Saving again (the page loaded again) keeps one row; a new endpoint replaces the old.
    expect((await send(a, 'POST', body)).status).toBe(200);
    const { body: next } = await keysOf(service, publicKey);
    expect((await send(a, 'POST', next)).status).toBe(200);
    expect(await stored(p, a.web)).toMatchObject([{ endpoint: next.endpoint }]);
    expect(JSON.parse((await send(a, 'DELETE')).text)).toEqual({ result: 'unsubscribed' });
    expect(await stored(p, a.web)).toEqual([]);
  });

  it("pushes a new offer to its courier's phone once, encrypted for it, and nothing to another courier", async () => {
    const a = await signedInCourier(p, 'Kwesi Offered');
    const b = await signedInCourier(p, 'Abla Bystander');
    const mine = await keysOf(service, publicKey);
    const theirs = await keysOf(service, publicKey);
    expect((await send(a, 'POST', mine.body)).status).toBe(200);
    expect((await send(b, 'POST', theirs.body)).status).toBe(200);

    const order = await productionOrder(s);
    expect(await p.app.platform.dispatch!.offers.offerTo(order, a.id)).toBe(true);
    const committed = Date.now();
    await expect.poll(() => service.messages(mine.sub.clientHash).length, POLL).toBe(1);
    console.info(
      `offer push decrypted by the push service ${Date.now() - committed} ms after the commit`,
    );
    const push = JSON.parse(service.messages(mine.sub.clientHash)[0]!);
    expect(push).toMatchObject({
      type: 'offer',
      order_id: order,
      title: 'New job offered',
      tag: `offer-${push.offer_id}`,
      url: '/courier/',
    });
    expect(push.body).toMatch(/^Pickup: .+ · fee GHS \d+\.\d{2}$/);
    expect(Date.parse(push.expires_at)).toBeGreaterThan(Date.now());

    // A later commit wakes every instance again: b is told of its own offer, a not again of its.
    const other = await productionOrder(s);
    expect(await p.app.platform.dispatch!.offers.offerTo(other, b.id)).toBe(true);
    await expect.poll(() => service.messages(theirs.sub.clientHash).length, POLL).toBe(1);
    expect(JSON.parse(service.messages(theirs.sub.clientHash)[0]!).order_id).toBe(other);
    expect(service.messages(mine.sub.clientHash)).toHaveLength(1);
  });

  it('forgets a subscription the push service says is gone (410) and one whose session ended, and sign-out removes it', async () => {
    const a = await signedInCourier(p, 'Efua Expired');
    const gone = await keysOf(service, publicKey);
    expect((await send(a, 'POST', gone.body)).status).toBe(200);
    service.expire(gone.sub.clientHash);
    expect(await p.app.platform.dispatch!.offers.offerTo(await productionOrder(s), a.id)).toBe(
      true,
    );
    await expect.poll(() => stored(p, a.web), POLL).toEqual([]);

    // A session that ended without a sign-out (timed out): its row goes at the next offer, unsent.
    const ended = await signedInCourier(p, 'Akua Timed Out');
    const quiet = await keysOf(service, publicKey);
    expect((await send(ended, 'POST', quiet.body)).status).toBe(200);
    await p.app.platform.sessions.end(ended.web.cookies.get('pp_courier')!);
    expect(await p.app.platform.dispatch!.offers.offerTo(await productionOrder(s), ended.id)).toBe(
      true,
    );
    await expect.poll(() => stored(p, ended.web), POLL).toEqual([]);
    expect(service.messages(quiet.sub.clientHash)).toEqual([]);

    const b = await signedInCourier(p, 'Nana Signed Out');
    const { body } = await keysOf(service, publicKey);
    expect((await send(b, 'POST', body)).status).toBe(200);
    const out = await b.web.post('/courier/sign-out', { _csrf: b.csrf });
    expect(out.status).toBe(303);
    const rows = await p.app.platform.db.query(
      'select 1 from courier_push_subscriptions where endpoint = $1',
      [body.endpoint],
    );
    expect(rows).toEqual([]);
  });
});

describe('Web Push on a public address', () => {
  let p: TestPlatform;
  const keys = webpush.generateVAPIDKeys();
  beforeAll(async () => {
    p = await startPlatform({
      socket: false,
      env: {
        PUBLIC_BASE_URL: 'https://couriers.example.gh',
        WEB_PUSH: 'on',
        VAPID_PUBLIC_KEY: keys.publicKey,
        VAPID_PRIVATE_KEY: keys.privateKey,
        VAPID_SUBJECT: 'mailto:ops@couriers.example.gh',
      },
    });
  });
  afterAll(() => p?.close());

  it("takes only https endpoints on browsers' push services, and offers the configured key", async () => {
    // Signed in through the session store: the sign-in forms want the public origin's https.
    const courier = await p.app.platform.couriers.create({
      name: 'Kojo Public',
      phone: newPhone(),
      vehicle: 'motorbike',
    });
    const { id, session } = await p.app.platform.sessions.start({
      kind: 'courier',
      id: courier.id,
    });
    const web = new WebClient(p);
    web.cookies.set('pp_courier', id);
    expect((await web.get('/courier/')).text).toContain(`data-push-key="${keys.publicKey}"`);
    const post = (endpoint: string) =>
      web.request('POST', URL_PATH, {
        body: JSON.stringify({
          endpoint,
          keys: {
            p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 9)]).toString('base64url'),
            auth: Buffer.alloc(16, 3).toString('base64url'),
          },
        }),
        headers: {
          'content-type': 'application/json',
          origin: 'https://couriers.example.gh',
          'x-csrf-token': session.csrfToken,
        },
      });
    for (const endpoint of ['http://fcm.googleapis.com/fcm/send/x', 'https://10.0.0.5/notify/x']) {
      const r = await post(endpoint);
      expect([r.status, JSON.parse(r.text).code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect((await post('https://fcm.googleapis.com/fcm/send/abc:def')).status).toBe(200);
  });
});

describe.runIf(onPostgres)('offer pushes across two instances (PostgreSQL)', () => {
  const keys = webpush.generateVAPIDKeys();
  // Both instances sign with one key pair, as production's do (deployment.md).
  const two = useTwoInstances({
    env: {
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:ops@partners.example.gh',
    },
  });
  let service: FakePushService;
  beforeAll(async () => {
    service = await startFakePushService();
  });
  afterAll(() => service?.close());

  it('pushes an offer made through one instance once, though both are woken by its commit', async () => {
    const { a, b } = two;
    const s = await createPartner(a, { environment: 'production' });
    const mine = await signedInCourier(b, 'Ekow Twice');
    const other = await signedInCourier(a, 'Dede Twice');
    const sub = await keysOf(service, keys.publicKey);
    const theirs = await keysOf(service, keys.publicKey);
    expect((await send(mine, 'POST', sub.body)).status).toBe(200);
    expect((await send(other, 'POST', theirs.body)).status).toBe(200);
    const order = await productionOrder(s);
    expect(await a.app.platform.dispatch!.offers.offerTo(order, mine.id)).toBe(true);
    await expect.poll(() => service.messages(sub.sub.clientHash).length, POLL).toBe(1);
    // Another commit wakes both again; when its push has arrived, the first is still alone.
    expect(await b.app.platform.dispatch!.offers.offerTo(await productionOrder(s), other.id)).toBe(
      true,
    );
    await expect.poll(() => service.messages(theirs.sub.clientHash).length, POLL).toBe(1);
    expect(service.messages(sub.sub.clientHash)).toHaveLength(1);
    expect(JSON.parse(service.messages(sub.sub.clientHash)[0]!).order_id).toBe(order);
  });
});
