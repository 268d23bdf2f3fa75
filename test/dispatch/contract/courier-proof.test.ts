import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ObjectStorage } from '../../../src/integrations/storage/index.ts';
import { signedInCourier } from '../../helpers/courier.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { allTexts } from '../../helpers/outbox-read.ts';
import { solidPng } from '../../helpers/png.ts';
import { productionOrder } from '../helpers.ts';

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  s = await createPartner(p, { environment: 'production' });
});
afterAll(() => p.close());

type Courier = Awaited<ReturnType<typeof signedInCourier>>;
const PHOTO = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
  Buffer.from('JFIF a doorstep'),
]);
const SIGNATURE = solidPng(4, 2);
const order = (id: string) =>
  s.client
    .send<any>('POST', '/api/v1/delivery/orders.get', { body: { order_id: id } })
    .then((r) => r.body.data);
const proofRows = (id: string) =>
  p.app.platform.db.query<{ kind: string; client_id: string | null }>(
    'select kind, client_id from delivery_proofs where order_id = $1 order by kind',
    [id],
  );

/** orderBody's drop-off point. */
const DROPOFF = { lat: 5.556, lng: -0.182 };

/** The courier reports a position (`secondsAgo` old). */
const at = (c: Courier, where: { lat: number; lng: number }, secondsAgo = 0) =>
  p.app.platform.couriers.reportPosition(c.id, {
    ...where,
    at: new Date(Date.now() - secondsAgo * 1000),
  });

/** An order whose job `c` holds at the drop-off, no code given. */
async function atDropoff(c: Courier): Promise<string> {
  const id = await productionOrder(s);
  const svc = p.app.platform.dispatch!.service;
  await svc.assign(id, c.id);
  await svc.pickedUp(c.id, id);
  await svc.arrived(c.id, id);
  return id;
}

function upload(
  c: Courier,
  orderId: string,
  bytes: Uint8Array,
  opts: {
    kind?: string;
    clientId?: string;
    headers?: Record<string, string>;
    takenAt?: string;
  } = {},
) {
  const query = new URLSearchParams({
    kind: opts.kind ?? 'photo',
    client_id: opts.clientId ?? randomUUID(),
    ...(opts.takenAt ? { taken_at: opts.takenAt } : {}),
  });
  return c.web.request('POST', `/courier/jobs/${orderId}/proofs?${query}`, {
    body: bytes,
    headers: opts.headers ?? {
      'content-type': 'image/jpeg',
      origin: c.web.base,
      'x-csrf-token': c.csrf,
    },
  });
}

async function act(c: Courier, kind: string, payload: Record<string, unknown>) {
  const res = await c.web.request('POST', '/courier/actions', {
    body: JSON.stringify({ id: randomUUID(), kind, at: new Date().toISOString(), payload }),
    headers: { 'content-type': 'application/json', origin: c.web.base, 'x-csrf-token': c.csrf },
  });
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.text) as { result: string; reason?: string };
}

const body = (res: { status: number; text: string; headers: Headers }) => [
  res.status,
  res.headers.get('content-type'),
  JSON.parse(res.text),
];

describe('proof photos and signatures uploaded from the courier app', () => {
  it('stores a photo and a signature once however often replayed, and then "delivered" needs no code', async () => {
    const c = await signedInCourier(p);
    const id = await atDropoff(c);
    const page = (await c.web.get('/courier/')).text;
    expect(page).toContain('The recipient cannot give the code');
    expect(page).toMatch(
      /<input id="proof-photo" name="photo" type="file" accept="image\/\*" capture="environment"/,
    );

    const storage = (p.app.platform.proofs as unknown as { deps: { storage: ObjectStorage } }).deps
      .storage;
    const puts = vi.spyOn(storage, 'put');
    const deletes = vi.spyOn(storage, 'delete');
    const clientId = randomUUID();
    const first = await upload(c, id, PHOTO, { clientId });
    expect(first.status, first.text).toBe(200);
    expect(JSON.parse(first.text)).toMatchObject({
      result: 'stored',
      proof: { id: expect.stringMatching(/^prf_/), kind: 'photo' },
    });
    // The answer was lost and the phone sends it again, twice at once: the same proof, stored once.
    const replays = await Promise.all([
      upload(c, id, PHOTO, { clientId }),
      upload(c, id, PHOTO, { clientId }),
    ]);
    for (const r of replays)
      expect(JSON.parse(r.text).proof.id).toBe(JSON.parse(first.text).proof.id);
    // A first upload sent twice at once: whichever is recorded second removes its own stored copy.
    const sigId = randomUUID();
    const octets = {
      'content-type': 'application/octet-stream',
      origin: c.web.base,
      'x-csrf-token': c.csrf,
    };
    const signed = await Promise.all([
      upload(c, id, SIGNATURE, { kind: 'signature', clientId: sigId, headers: octets }),
      upload(c, id, SIGNATURE, { kind: 'signature', clientId: sigId, headers: octets }),
    ]);
    expect(signed.map((r) => r.status)).toEqual([200, 200]);
    expect(JSON.parse(signed[0]!.text).proof.id).toBe(JSON.parse(signed[1]!.text).proof.id);
    expect(await proofRows(id)).toEqual([
      { kind: 'photo', client_id: clientId },
      { kind: 'signature', client_id: sigId },
    ]);
    // One object kept for the photo, one for the signature.
    expect(puts.mock.calls.length - deletes.mock.calls.length).toBe(2);
    puts.mockRestore();
    deletes.mockRestore();

    await at(c, DROPOFF);
    expect(await act(c, 'delivered', { order_id: id })).toMatchObject({ result: 'applied' });
    const done = await order(id);
    expect(done.status).toBe('delivered');
    expect(done.proof_of_delivery.method).toBe('photo');
    expect(done.proof_of_delivery.confirmation).toBe('pending');
    expect(done.proof_of_delivery.media.map((m: any) => [m.kind, m.content_type])).toEqual([
      ['photo', 'image/jpeg'],
      ['signature', 'image/png'],
    ]);
  });

  it('refuses another courier, a wrong type by its bytes, too many bytes, a missing token, a stranger and bad fields: 4xx in JSON, nothing stored', async () => {
    const c = await signedInCourier(p);
    const other = await signedInCourier(p, 'Ama Mensah');
    const id = await atDropoff(c);

    expect(body(await upload(other, id, PHOTO))).toEqual([
      403,
      expect.stringMatching(/^application\/json/),
      { error: expect.stringContaining('holding this job'), code: 'NOT_YOUR_JOB' },
    ]);
    // Declared a JPEG, but the bytes are a GIF, an SVG, HTML.
    for (const bytes of [
      Buffer.from('GIF89a\x01\x00\x01\x00'),
      Buffer.from('<svg onload="alert(1)"/>'),
      Buffer.from('<html>'),
    ]) {
      expect(body(await upload(c, id, bytes))).toEqual([
        415,
        expect.stringMatching(/^application\/json/),
        { error: expect.stringContaining('JPEG, PNG or WebP'), code: 'UNSUPPORTED_MEDIA_TYPE' },
      ]);
    }
    const huge = Buffer.concat([PHOTO, Buffer.alloc(5 * 1024 * 1024)]);
    expect(body(await upload(c, id, huge))).toEqual([
      413,
      expect.stringMatching(/^application\/json/),
      { error: 'A proof image must be at most 5 MB.', code: 'PAYLOAD_TOO_LARGE' },
    ]);
    const noToken = await upload(c, id, PHOTO, {
      headers: { 'content-type': 'image/jpeg', origin: c.web.base },
    });
    expect(body(noToken)).toEqual([
      403,
      expect.stringMatching(/^application\/json/),
      { error: expect.any(String), code: 'CSRF_FAILED' },
    ]);
    const crossSite = await upload(c, id, PHOTO, {
      headers: {
        'content-type': 'image/jpeg',
        origin: 'https://evil.example',
        'x-csrf-token': c.csrf,
      },
    });
    expect(JSON.parse(crossSite.text).code).toBe('CSRF_FAILED');
    const stranger = await p.fetch(`${p.url}/courier/jobs/${id}/proofs?kind=photo`, {
      method: 'POST',
      body: PHOTO,
      headers: { 'content-type': 'image/jpeg' },
    });
    expect([stranger.status, (await stranger.json()).code]).toEqual([401, 'SIGNED_OUT']);
    expect((await upload(c, id, PHOTO, { kind: 'video' })).status).toBe(400);
    expect(JSON.parse((await upload(c, id, PHOTO, { clientId: "x'; drop" })).text).code).toBe(
      'VALIDATION_ERROR',
    );
    expect(
      JSON.parse((await upload(c, id, PHOTO, { takenAt: '2999-01-01T00:00:00Z' })).text).code,
    ).toBe('VALIDATION_ERROR');
    expect((await upload(c, id, new Uint8Array(0))).status).toBe(400);
    expect((await upload(c, 'dlv_nope', PHOTO)).status).toBe(403);
    expect(await proofRows(id)).toEqual([]);

    // Without any proof the delivery is still refused.
    expect(await act(c, 'delivered', { order_id: id })).toMatchObject({
      result: 'refused',
      reason: expect.stringContaining('take a photo'),
    });
    expect((await order(id)).status).toBe('in_transit');
  });

  it('refuses a photo far from the drop-off or without a recent position (named codes, saying what to do), then delivers near it unconfirmed and texts the recipient once', async () => {
    const c = await signedInCourier(p);
    const id = await atDropoff(c);
    expect((await upload(c, id, PHOTO)).status).toBe(200);
    // No position reported yet.
    expect(await act(c, 'delivered', { order_id: id })).toMatchObject({
      result: 'refused',
      code: 'POSITION_NOT_FRESH',
      reason: expect.stringContaining('Turn on location'),
    });
    // Near, but reported 10 minutes ago (the limit is 5).
    await at(c, DROPOFF, 600);
    expect(await act(c, 'delivered', { order_id: id })).toMatchObject({
      code: 'POSITION_NOT_FRESH',
    });
    // Fresh, but about 2 km away.
    await at(c, { lat: 5.574, lng: -0.182 });
    const far = await act(c, 'delivered', { order_id: id });
    expect(far).toMatchObject({
      result: 'refused',
      code: 'TOO_FAR_FROM_DROPOFF',
      reason: expect.stringMatching(
        /about 2\d{3} m from the drop-off.*within 150 m.*Go to the drop-off/,
      ),
    });
    expect((await order(id)).status).toBe('in_transit');
    expect(await p.app.platform.proofConfirmations.get(id)).toBeUndefined();
    // Near the drop-off (about 50 m): delivered, pending the recipient's answer.
    await at(c, { lat: 5.55645, lng: -0.182 });
    const actionId = randomUUID();
    const send = () =>
      c.web.request('POST', '/courier/actions', {
        body: JSON.stringify({
          id: actionId,
          kind: 'delivered',
          at: new Date().toISOString(),
          payload: { order_id: id },
        }),
        headers: { 'content-type': 'application/json', origin: c.web.base, 'x-csrf-token': c.csrf },
      });
    expect(JSON.parse((await send()).text)).toMatchObject({ result: 'applied' });
    expect(JSON.parse((await send()).text)).toMatchObject({ result: 'already_applied' });
    expect((await order(id)).status).toBe('delivered');
    expect(await p.app.platform.proofConfirmations.get(id)).toMatchObject({
      state: 'pending',
      courier_id: c.id,
      distance_m: expect.any(Number),
      texted_at: expect.any(Date),
    });
    const link = p.app.platform.proofConfirmations.linkFor(id);
    const texts = (await allTexts(p))
      .filter((t) => t.body.includes(link))
      .map(({ to_number, body }) => ({ to_number, body }));
    expect(texts).toEqual([
      { to_number: '+233241234567', body: expect.stringContaining('confirm') },
    ]);
  });

  it('judges a delivery queued offline as of the tap: positions and the delivery sent 20 minutes later still pass near the drop-off', async () => {
    const c = await signedInCourier(p);
    const id = await atDropoff(c);
    expect((await upload(c, id, PHOTO)).status).toBe(200);
    // Offline at the door 20 minutes ago: the position report and the tap reach the server now.
    await at(c, DROPOFF, 20 * 60);
    const res = await c.web.request('POST', '/courier/actions', {
      body: JSON.stringify({
        id: randomUUID(),
        kind: 'delivered',
        at: new Date(Date.now() - 19 * 60_000).toISOString(),
        payload: { order_id: id },
      }),
      headers: { 'content-type': 'application/json', origin: c.web.base, 'x-csrf-token': c.csrf },
    });
    expect(JSON.parse(res.text)).toMatchObject({ result: 'applied' });
    expect((await order(id)).proof_of_delivery.confirmation).toBe('pending');
  });
});
