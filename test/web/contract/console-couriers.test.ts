import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audited as readAudit } from '../../helpers/audit.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { newPhone } from '../../helpers/courier.ts';
import { courierIds } from '../../helpers/dispatch-read.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { csrfOf, type WebClient } from '../../helpers/web.ts';

let p: TestPlatform;
let support: WebClient;
let finance: WebClient;
let now = Date.now();
beforeAll(async () => {
  p = await startPlatform({ socket: false, clock: () => now });
  support = (await signedInOperator(p, ['support'], () => (now += TOTP_STEP_MS))).web;
  finance = (await signedInOperator(p, ['finance'], () => (now += TOTP_STEP_MS))).web;
});
afterAll(() => p.close());

const audited = (action: string) => readAudit(p, { action });

describe('console: couriers', () => {
  it('creates, finds, edits, deactivates and reactivates a courier, each change audited as the operator', async () => {
    const phone = newPhone();
    const created = await support.submit('/console/couriers', '/console/couriers', {
      name: 'Kwesi Appiah',
      phone,
      vehicle: 'van',
      zones: 'accra, tema',
    });
    expect(created.status).toBe(303);
    const id = created.location!.split('/').at(-1)!;
    expect((await audited('courier.create')).find((a) => a.target?.id === id)?.actor.kind).toBe(
      'operator',
    );

    const list = await support.get(`/console/couriers?q=${encodeURIComponent('Kwesi')}&active=yes`);
    expect(list.text).toContain('Kwesi Appiah');
    expect(list.text).toContain(phone);
    expect((await support.get('/console/couriers?q=nobody-like-this')).text).toContain(
      'No courier matches',
    );

    const edited = await support.submit(`/console/couriers/${id}`, `/console/couriers/${id}`, {
      name: 'Kwesi Appiah Jr',
      phone,
      vehicle: 'car',
      zones: 'kumasi',
    });
    expect(edited.status).toBe(200);
    expect(edited.text).toContain('Saved.');
    expect(await p.app.platform.couriers.get(id)).toMatchObject({
      name: 'Kwesi Appiah Jr',
      vehicle: 'car',
      zones: ['kumasi'],
    });

    await p.app.platform.sessions.start({ kind: 'courier', id });
    const off = await support.submit(`/console/couriers/${id}`, `/console/couriers/${id}/active`, {
      active: 'no',
    });
    expect(off.text).toContain('Deactivated');
    expect((await p.app.platform.couriers.get(id)).active).toBe(false);
    expect(
      await p.app.platform.db.query(
        'select id_hash from web_sessions where subject_kind = $1 and subject_id = $2',
        ['courier', id],
      ),
    ).toHaveLength(0);
    expect((await support.get('/console/couriers?active=no')).text).toContain('Kwesi Appiah Jr');
    await support.submit(`/console/couriers/${id}`, `/console/couriers/${id}/active`, {
      active: 'yes',
    });
    expect((await p.app.platform.couriers.get(id)).active).toBe(true);
    expect((await audited('courier.update')).filter((a) => a.target?.id === id)).toHaveLength(3);
  });

  it('shows bad input back with a message and changes nothing', async () => {
    const before = (await courierIds(p)).length;
    const res = await support.submit('/console/couriers', '/console/couriers', {
      name: 'Ama\u0001',
      phone: '123',
      vehicle: 'boat',
      zones: '',
    });
    expect(res.status).toBe(400);
    expect((await courierIds(p)).length).toBe(before);
    expect((await support.get('/console/couriers/cou_01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(
      404,
    );
    expect((await support.get('/console/couriers/nope')).status).toBe(404);
  });

  it('lets finance read but not change couriers, and refuses a form without its token', async () => {
    const courier = await p.app.platform.couriers.create({
      name: 'Read Only',
      phone: newPhone(),
      vehicle: 'car',
    });
    const page = await finance.get(`/console/couriers/${courier.id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Deactivate');
    expect(
      (
        await finance.post(`/console/couriers/${courier.id}/active`, {
          _csrf: csrfOf(page.text),
          active: 'no',
        })
      ).status,
    ).toBe(403);
    expect(
      (await support.post(`/console/couriers/${courier.id}/active`, { active: 'no' })).status,
    ).toBe(403);
    expect((await p.app.platform.couriers.get(courier.id)).active).toBe(true);
  });
});
