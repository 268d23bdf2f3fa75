import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { courierNear, earlierCouriers, productionOrder } from '../../dispatch/helpers.ts';
import { audited } from '../../helpers/audit.ts';
import { useConsoleWithPartner } from '../../helpers/console.ts';
import { csrfOf, WebClient } from '../../helpers/web.ts';

const PHOTO = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
  Buffer.from('JFIF a doorstep'),
]);
/** orderBody's drop-off point. */
const DROPOFF = { lat: 5.556, lng: -0.182 };

describe("a recipient's confirmation of a delivery proved by a photo", () => {
  const env = useConsoleWithPartner();
  const platform = () => env.p.app.platform;
  const stateOf = async (orderId: string) =>
    (await platform().proofConfirmations.get(orderId))?.state;

  /** A production order a courier delivered with a photo at the drop-off: its link's path and token. */
  async function unconfirmed() {
    const c = await courierNear(env.p, 1, env.clock.now);
    const orderId = await productionOrder(env.s);
    const svc = platform().dispatch!.service;
    await svc.assign(orderId, c.id);
    await svc.arrivedAtPickup(c.id, orderId);
    await svc.pickedUp(c.id, orderId);
    await svc.arrived(c.id, orderId);
    await platform().proofs.recordMedia({ orderId, kind: 'photo', bytes: PHOTO, courierId: c.id });
    await platform().couriers.reportPosition(c.id, {
      ...DROPOFF,
      at: new Date(env.clock.now + 1000),
    });
    await svc.delivered(c.id, orderId);
    const path = new URL(platform().proofConfirmations.linkFor(orderId)).pathname;
    return { orderId, path, token: path.split('/').at(-1)!, courierId: c.id };
  }
  const recipient = () => new WebClient(env.p.url);
  const partnerView = async (orderId: string) =>
    (
      await env.s.client.send<any>('POST', '/api/v1/delivery/orders.get', {
        body: { order_id: orderId },
      })
    ).body.data;

  it('asks the recipient on a page with no script and a strict CSP; confirm is recorded once, a replay answers the same, a dispute after it is refused', async () => {
    const { orderId, path } = await unconfirmed();
    expect((await partnerView(orderId)).status).toBe('delivered');
    expect((await partnerView(orderId)).proof_of_delivery.confirmation).toBe('pending');
    const web = recipient();
    const page = await web.get(path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.text).not.toMatch(/<script|<style|style=/);
    expect(page.text).toContain('Did you receive your delivery?');
    expect(
      page.text.match(/<form method="post" action="\/confirm\/[A-Za-z0-9_-]{43}">/g),
    ).toHaveLength(2);
    const css = /href="(\/assets\/confirm\.[0-9a-f]+\.css)"/.exec(page.text)![1]!;
    const sheet = await web.get(css);
    expect([sheet.status, sheet.headers.get('content-type')]).toEqual([
      200,
      'text/css; charset=utf-8',
    ]);

    const yes = await web.post(path, { answer: 'confirm' });
    expect(yes.status).toBe(200);
    expect(yes.text).toContain('you confirmed you received this delivery');
    const first = await platform().proofConfirmations.get(orderId);
    expect(first).toMatchObject({ state: 'confirmed', decided_by: 'recipient' });
    // A replay (a second tap, the back button): the same answer, nothing changed.
    const again = await web.post(path, { answer: 'confirm' });
    expect([again.status, again.text.includes('you confirmed')]).toEqual([200, true]);
    expect((await platform().proofConfirmations.get(orderId))!.decided_at).toEqual(
      first!.decided_at,
    );
    const no = await web.post(path, { answer: 'dispute', note: 'never came' });
    expect(no.status).toBe(409);
    expect(no.text).toContain('You already confirmed this delivery.');
    expect(await stateOf(orderId)).toBe('confirmed');
    expect((await partnerView(orderId)).proof_of_delivery.confirmation).toBe('confirmed');
    const after = await web.get(path);
    expect(after.text).not.toContain('<form');
  });

  it('answers a guessed, malformed or huge token with the same 404 page, and refuses hostile forms with nothing written', async () => {
    const { orderId, path } = await unconfirmed();
    const web = recipient();
    const guessed = `/confirm/${randomBytes(32).toString('base64url')}`;
    for (const bad of [
      guessed,
      '/confirm/abc',
      `/confirm/${'A'.repeat(5000)}`,
      `/confirm/${'A'.repeat(42)}%00`,
      `/confirm/${'A'.repeat(42)}%0A`,
      '/confirm/..%2F..%2Fetc',
      `${path}x`,
    ]) {
      const got = await web.get(bad);
      // A control character in the path is refused (400) before any route, like everywhere else.
      const expected = /%0[0A]$/.test(bad) ? 400 : 404;
      expect([bad, got.status]).toEqual([bad, expected]);
      // A path the router itself refuses (over its parameter length) answers the app's JSON 404.
      if (bad.length < 200 && expected === 404)
        expect(got.text).toContain('This link is not valid');
      const posted = await web.post(bad, { answer: 'confirm' });
      expect([bad, posted.status]).toEqual([bad, expected]);
    }
    const refusals: Array<[Record<string, string>, Record<string, string>, number]> = [
      [{ answer: 'yes' }, {}, 400],
      [{ answer: '' }, {}, 400],
      [{ answer: 'dispute', note: 'a\u0000b' }, {}, 400],
      [{ answer: 'dispute', note: 'x'.repeat(501) }, {}, 400],
      [{ answer: 'confirm' }, { origin: 'https://evil.example' }, 403],
      [{ answer: 'confirm' }, { 'sec-fetch-site': 'cross-site' }, 403],
      [{ answer: 'confirm' }, { 'content-type': 'application/json' }, 415],
    ];
    for (const [fields, headers, status] of refusals)
      expect([fields, headers, (await web.post(path, fields, headers)).status]).toEqual([
        fields,
        headers,
        status,
      ]);
    const twice = await web.request('POST', path, {
      body: 'answer=confirm&answer=dispute',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: env.p.url },
    });
    expect(twice.status).toBe(400);
    expect(await platform().proofConfirmations.get(orderId)).toMatchObject({
      state: 'pending',
      decided_at: null,
      dispute_note: null,
    });
  });

  it("names a courier past the first 200 on the operators' list", async () => {
    await earlierCouriers(env.p, 250);
    const { orderId, courierId } = await unconfirmed();
    await platform().couriers.update(courierId, { name: 'Esi Beyond' });
    const { web } = await env.signedIn(['support']);
    const list = await web.get('/console/confirmations');
    expect(list.text).toContain(orderId);
    expect(list.text).toContain(`title="${courierId}">Esi Beyond</a>`);
  });

  it("puts a dispute on the operators' list; an operator accepts it (audited), once; the recipient cannot change it after", async () => {
    const { orderId, path } = await unconfirmed();
    const web = recipient();
    const no = await web.post(path, { answer: 'dispute', note: 'Nobody came to <b>my</b> door' });
    expect(no.status).toBe(200);
    expect(no.text).toContain('we recorded that you did not receive');
    expect(await platform().proofConfirmations.get(orderId)).toMatchObject({
      state: 'disputed',
      dispute_note: 'Nobody came to <b>my</b> door',
    });
    expect((await partnerView(orderId)).proof_of_delivery.confirmation).toBe('disputed');

    const { web: op } = await env.signedIn(['support']);
    const list = await op.get('/console/confirmations');
    expect(list.status).toBe(200);
    expect(list.text).toContain(orderId);
    expect(list.text).toContain('disputed');
    expect(list.text).toContain('Nobody came to &lt;b&gt;my&lt;/b&gt; door');
    const csrf = csrfOf(list.text);
    expect((await op.post(`/console/confirmations/${orderId}/accept`, {})).status).toBe(403);
    expect((await op.post('/console/confirmations/dlv_nope/accept', { _csrf: csrf })).status).toBe(
      404,
    );
    const ok = await op.post(`/console/confirmations/${orderId}/accept`, { _csrf: csrf });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain(`Accepted the delivery of ${orderId}`);
    expect(await stateOf(orderId)).toBe('accepted');
    expect(
      (await audited(env.p, { action: 'delivery_confirmation.accept', target_id: orderId })).length,
    ).toBe(1);
    const twice = await op.post(`/console/confirmations/${orderId}/accept`, { _csrf: csrf });
    expect(twice.status).toBe(409);
    expect(twice.text).toContain('already accepted');
    expect((await op.get('/console/confirmations')).text).not.toContain(orderId);
    expect((await web.post(path, { answer: 'confirm' })).status).toBe(409);
    expect(await stateOf(orderId)).toBe('accepted');
    // Not signed in: the console sends a stranger to sign in; the list is not shown.
    const stranger = await recipient().get('/console/confirmations');
    expect(stranger.status).toBe(303);
  });
});
