import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audited } from '../../helpers/audit.ts';
import { courierIds } from '../../helpers/dispatch-read.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { operatorWithToken } from '../../operators/helpers.ts';

let p: TestPlatform;
let support: string;
let finance: string;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  support = (await operatorWithToken(p, ['support'])).token;
  finance = (await operatorWithToken(p, ['finance'])).token;
});
afterAll(() => p.close());

const audits = (action: string, id: string) => audited(p, { action, target_id: id });

describe('operator API: couriers', () => {
  it('creates, reads, lists, searches, pages and changes a courier; every change audited', async () => {
    const created = await p.admin(
      'POST',
      '/couriers',
      {
        name: 'Kofi Mensah',
        phone: '024 123 4501',
        vehicle: 'motorbike',
        zones: ['Accra-Central'],
      },
      support,
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Kofi Mensah',
      phone: '+233241234501',
      vehicle: 'motorbike',
      zones: ['accra-central'],
      active: true,
      on_duty: false,
      last_position: null,
    });
    const id = created.body.courier_id as string;
    expect(id).toMatch(/^cou_/);
    expect((await audits('courier.create', id)).length).toBe(1);

    expect((await p.admin('GET', `/couriers/${id}`, undefined, finance)).body.name).toBe(
      'Kofi Mensah',
    );
    await p.admin('POST', '/couriers', {
      name: 'Akua Boateng',
      phone: '0241234502',
      vehicle: 'car',
    });
    const search = await p.admin('GET', '/couriers?q=akua', undefined, finance);
    expect(search.body.couriers.map((c: any) => c.name)).toEqual(['Akua Boateng']);
    const byPhone = await p.admin('GET', '/couriers?q=4501');
    expect(byPhone.body.couriers.map((c: any) => c.courier_id)).toEqual([id]);
    const page1 = await p.admin('GET', '/couriers?limit=1');
    expect(page1.body.couriers).toHaveLength(1);
    const page2 = await p.admin('GET', `/couriers?limit=1&after=${page1.body.next_after}`);
    expect(page2.body.couriers[0].courier_id).not.toBe(page1.body.couriers[0].courier_id);

    const changed = await p.admin(
      'PATCH',
      `/couriers/${id}`,
      { vehicle: 'van', zones: ['tema'] },
      support,
    );
    expect(changed.body).toMatchObject({ vehicle: 'van', zones: ['tema'] });
    const [entry] = await audits('courier.update', id);
    expect(entry!.before).toMatchObject({ vehicle: 'motorbike' });
    expect(entry!.after.response).toMatchObject({ vehicle: 'van' });

    await p.app.platform.couriers.setDuty(id, true);
    const off = await p.admin('PATCH', `/couriers/${id}`, { active: false }, support);
    expect(off.body).toMatchObject({ active: false, on_duty: false });
    expect(
      (await p.admin('GET', '/couriers?active=false')).body.couriers.map((c: any) => c.courier_id),
    ).toContain(id);
    expect(
      (await p.admin('GET', '/couriers?active=true')).body.couriers.map((c: any) => c.courier_id),
    ).not.toContain(id);
    expect((await p.admin('PATCH', `/couriers/${id}`, { active: true })).body.active).toBe(true);
  });

  it('lets every role read and only support and admin change', async () => {
    const res = await p.admin(
      'POST',
      '/couriers',
      { name: 'Yaw Finance', phone: '0241234503', vehicle: 'car' },
      finance,
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
    const id = (
      await p.admin('POST', '/couriers', { name: 'Yaw Owusu', phone: '0241234504', vehicle: 'car' })
    ).body.courier_id;
    expect((await p.admin('PATCH', `/couriers/${id}`, { active: false }, finance)).status).toBe(
      403,
    );
    expect((await p.admin('GET', '/couriers', undefined, finance)).status).toBe(200);
    expect((await p.admin('GET', '/couriers', undefined, 'opt_not_a_token')).status).toBe(401);
  });

  it('answers bad input with a clear 4xx and changes nothing', async () => {
    const count = async () => (await courierIds(p)).length;
    const before = await count();
    const bad = [
      { name: 'Ama\u0000', phone: '0241234510', vehicle: 'car' },
      { name: 'Ama', phone: '12345', vehicle: 'car' },
      { name: 'Ama', phone: '0241234510', vehicle: 'bicycle' },
      { name: 'Ama', phone: '0241234510', vehicle: 'car', zones: ['no spaces allowed'] },
      { name: 'Ama', phone: '0241234510', vehicle: 'car', extra: 1 },
      { name: 'x'.repeat(5000), phone: '0241234510', vehicle: 'car' },
    ];
    for (const body of bad) {
      const res = await p.admin('POST', '/couriers', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect(await count()).toBe(before);
    const dup = await p.admin('POST', '/couriers', {
      name: 'Esi',
      phone: '0241234501',
      vehicle: 'car',
    });
    expect([dup.status, dup.body.code]).toEqual([409, 'COURIER_PHONE_TAKEN']);
    expect((await p.admin('GET', '/couriers/cou_01ARZ3NDEKTSV4RRFFQ69G5FAV')).body.code).toBe(
      'COURIER_NOT_FOUND',
    );
    expect((await p.admin('GET', '/couriers?limit=100000')).status).toBe(400);
    expect(
      (await p.admin('PATCH', '/couriers/cou_01ARZ3NDEKTSV4RRFFQ69G5FAV', { name: 'Nobody' }))
        .status,
    ).toBe(404);
  });
});
