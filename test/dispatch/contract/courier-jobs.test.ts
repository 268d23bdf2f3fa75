import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterCode, newPhone, requestCode, smsCode } from '../../helpers/courier.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { allTexts } from '../../helpers/outbox-read.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { WebClient } from '../../helpers/web.ts';
import { allOffDuty, PICKUP, productionOrder, ZONE } from '../helpers.ts';

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  s = await createPartner(p, { environment: 'production' });
});
afterAll(() => p.close());

const order = (id: string) =>
  s.client
    .send<any>('POST', '/api/v1/delivery/orders.get', { body: { order_id: id } })
    .then((r) => r.body.data);

/** An on-duty courier at the pickup, signed in to the courier app. */
async function courierApp(): Promise<{ web: WebClient; id: string; csrf: string }> {
  const { couriers } = p.app.platform;
  const phone = newPhone();
  const courier = await couriers.create({
    name: 'Esi Owusu',
    phone,
    vehicle: 'motorbike',
    zones: [ZONE],
  });
  await couriers.setDuty(courier.id, true);
  await couriers.reportPosition(courier.id, { ...PICKUP, at: new Date() });
  const web = new WebClient(p);
  await requestCode(web, phone);
  await enterCode(web, phone, (await smsCode(p, phone))!);
  const csrf = /data-csrf="([^"]+)"/.exec((await web.get('/courier/')).text)![1]!;
  return { web, id: courier.id, csrf };
}

async function act(
  c: { web: WebClient; csrf: string },
  kind: string,
  payload: Record<string, unknown>,
  id: string = randomUUID(),
) {
  const res = await c.web.request('POST', '/courier/actions', {
    body: JSON.stringify({ id, kind, at: new Date().toISOString(), payload }),
    headers: { 'content-type': 'application/json', origin: c.web.base, 'x-csrf-token': c.csrf },
  });
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.text) as { id: string; result: string; reason?: string };
}

/** The delivery code texted to the recipient of the order tracked at `trackingUrl`. */
async function textedCode(trackingUrl: string): Promise<string | undefined> {
  const rows = (await allTexts(p)).filter((t) => t.body.includes(trackingUrl));
  expect(rows.length).toBeLessThanOrEqual(1);
  return rows[0] && /Delivery code: (\d{4})\./.exec(rows[0].body)?.[1];
}

describe('a courier job through the courier app', () => {
  it('accepts, texts the recipient the code after the commit, picks up, and delivers only with the right code, once', async () => {
    await allOffDuty(p);
    const c = await courierApp();
    const id = await productionOrder(s);
    await p.app.platform.dispatch!.offers.tick();
    expect(await p.app.platform.dispatch!.service.currentJob(c.id)).toMatchObject({
      kind: 'offer',
      order_id: id,
    });

    const offer = (await c.web.get('/courier/')).text;
    expect(offer).toContain('New job offered');
    expect(offer).toContain('data-kind="accept"');
    expect(offer).toContain('Distance to pickup</dt><dd>0 km');

    const accept = await act(c, 'accept', { order_id: id });
    const held = (await c.web.get('/courier/')).text;
    expect(held).toContain('https://www.google.com/maps/dir/?api=1&amp;destination=5.549,-0.209');
    expect(held).toContain('data-kind="picked_up"');
    expect(held).not.toContain('id="code"');
    expect(accept.result).toBe('applied');
    expect((await act(c, 'accept', { order_id: id }, accept.id)).result).toBe('already_applied');
    const tracking = (await order(id)).tracking_url as string;
    const code = await textedCode(tracking);
    expect(code).toMatch(/^\d{4}$/);
    const [sms] = (await allTexts(p)).filter((t) => t.body.includes(tracking));
    expect(sms!.to_number).toBe('+233241234567');

    // Delivering before the pickup is refused by the job's stage.
    expect((await act(c, 'picked_up', { order_id: id })).result).toBe('applied');
    expect(await p.app.platform.dispatch!.service.currentJob(c.id)).toMatchObject({
      kind: 'job',
      order_id: id,
      stage: 'picked_up',
    });

    const carrying = (await c.web.get('/courier/')).text;
    expect(carrying).toContain('id="code"');
    expect(carrying).toContain('data-kind="could_not_deliver"');
    const none = await act(c, 'delivered', { order_id: id });
    expect(none).toMatchObject({
      result: 'refused',
      reason: expect.stringContaining('delivery code'),
    });
    const wrong = await act(c, 'delivered', {
      order_id: id,
      code: code === '0000' ? '1111' : '0000',
    });
    expect(wrong).toMatchObject({
      result: 'refused',
      reason: expect.stringContaining('4 tries left'),
    });
    const bad = await act(c, 'delivered', { order_id: id, code: '12\u00003' });
    expect(bad).toMatchObject({ result: 'refused', reason: 'A delivery code is 4 digits.' });
    expect((await order(id)).status).toBe('in_transit');

    // The cash the courier says they took must be a number and match what the recipient owed.
    const textCash = await act(c, 'delivered', { order_id: id, code, cash_collected_pesewas: '5' });
    expect(textCash).toMatchObject({
      result: 'refused',
      reason: expect.stringContaining('cash_collected_pesewas'),
    });
    const wrongCash = await act(c, 'delivered', { order_id: id, code, cash_collected_pesewas: 1 });
    expect(wrongCash).toMatchObject({ result: 'refused' });
    expect((await order(id)).status).toBe('in_transit');

    const right = await act(c, 'delivered', { order_id: id, code });
    expect(right.result).toBe('applied');
    expect((await act(c, 'delivered', { order_id: id, code }, right.id)).result).toBe(
      'already_applied',
    );
    const done = await order(id);
    expect(done.status).toBe('delivered');
    expect(done.proof_of_delivery.method).toBe('code');
    const moves = (await eventsAbout(p, id)).filter(
      (e) => (e.payload as any).data?.status === 'delivered',
    );
    expect(moves).toHaveLength(1);
    expect(await p.app.platform.dispatch!.service.currentJob(c.id)).toBeUndefined();
    expect((await c.web.get('/courier/')).text).toContain('No job for you right now.');
  });

  it("refuses with the reason another courier's job, a missing order id and an offer that is not open; declines and could-not-deliver go through", async () => {
    await allOffDuty(p);
    const a = await courierApp();
    const id = await productionOrder(s);
    await p.app.platform.dispatch!.offers.tick();
    const b = await courierApp();
    expect(await act(b, 'accept', { order_id: id })).toMatchObject({
      result: 'refused',
      reason: expect.stringContaining('not offered to you'),
    });
    expect(await act(a, 'accept', {})).toMatchObject({
      result: 'refused',
      reason: expect.stringContaining('order_id'),
    });
    expect((await act(a, 'accept', { order_id: id })).result).toBe('applied');
    expect(await act(b, 'delivered', { order_id: id, code: '1234' })).toMatchObject({
      result: 'refused',
      reason: 'Only the courier holding this job may act on it.',
    });
    expect(await act(a, 'could_not_deliver', { order_id: id, reason: '' })).toMatchObject({
      result: 'refused',
      reason: expect.stringContaining('reason'),
    });
    expect(
      await act(a, 'could_not_deliver', { order_id: id, reason: 'Nobody at the address' }),
    ).toMatchObject({ result: 'refused', reason: expect.stringContaining('recipient_absent') });
    expect(
      (await act(a, 'could_not_deliver', { order_id: id, reason: 'other', note: 'Shop closed' }))
        .result,
    ).toBe('applied');
    expect((await order(id)).status).toBe('failed');

    // An operator's assignment issues and texts the code too.
    const other = await productionOrder(s);
    await p.admin('POST', `/dispatch/orders/${other}/assign`, { courier_id: b.id });
    expect(await textedCode((await order(other)).tracking_url)).toMatch(/^\d{4}$/);
  });
});
