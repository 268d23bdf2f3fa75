import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { CouriersService } from '../../../src/modules/couriers/index.ts';
import { openDatabase } from '../../../src/platform/db/index.ts';
import type { Db } from '../../../src/platform/db/index.ts';
import { onPostgres } from '../../helpers/harness.ts';

const ACCRA = { lat: 5.6037, lng: -0.187 };
let db: Db;
const now = Date.parse('2026-11-24T09:00:00Z');
let couriers: CouriersService;

beforeAll(async () => {
  const schema = onPostgres ? `t_${randomBytes(6).toString('hex')}` : undefined;
  db = await openDatabase(
    loadConfig({
      DATABASE_URL: process.env.DATABASE_URL ?? 'memory:',
      ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    }).database,
  );
  couriers = new CouriersService(db, () => now);
});
afterAll(() => db?.close());

let n = 0;
const phone = () => `024${String(1_000_000 + n++).slice(-7)}`;

describe('CouriersService', () => {
  it('creates a courier with a normalised phone and refuses the same phone twice', async () => {
    const p = phone();
    const c = await couriers.create({
      name: 'Kofi Boateng',
      phone: p,
      vehicle: 'motorbike',
      zones: ['Accra'],
    });
    expect(c).toMatchObject({
      name: 'Kofi Boateng',
      phone: `+233${p.slice(1)}`,
      vehicle: 'motorbike',
      zones: ['accra'],
      active: true,
      on_duty: false,
    });
    expect(c.id).toMatch(/^cou_/);
    await expect(
      couriers.create({ name: 'Other', phone: `+233${p.slice(1)}`, vehicle: 'car' }),
    ).rejects.toMatchObject({ code: 'COURIER_PHONE_TAKEN', statusCode: 409 });
    expect((await couriers.byPhone(p))?.id).toBe(c.id);
  });

  it('refuses invalid input with every field named and writes nothing', async () => {
    const before = (await couriers.list({ limit: 200 })).length;
    await expect(
      couriers.create({ name: 'X\u0000', phone: 'abc', vehicle: 'bicycle' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'name' }, { field: 'phone' }, { field: 'vehicle' }],
    });
    expect((await couriers.list({ limit: 200 })).length).toBe(before);
  });

  it('answers COURIER_NOT_FOUND for an unknown courier', async () => {
    await expect(couriers.get('cou_missing')).rejects.toMatchObject({
      code: 'COURIER_NOT_FOUND',
      statusCode: 404,
    });
    await expect(couriers.update('cou_missing', { name: 'A' })).rejects.toMatchObject({
      code: 'COURIER_NOT_FOUND',
    });
    await expect(couriers.setDuty('cou_missing', true)).rejects.toMatchObject({
      code: 'COURIER_NOT_FOUND',
    });
  });

  it('keeps only the newest position, and lists on-duty couriers seen recently by vehicle and zone', async () => {
    const bike = await couriers.create({
      name: 'Ama Bike',
      phone: phone(),
      vehicle: 'motorbike',
      zones: ['east-legon'],
    });
    const van = await couriers.create({
      name: 'Yaw Van',
      phone: phone(),
      vehicle: 'van',
      zones: ['east-legon'],
    });
    await couriers.setDuty(bike.id, true);
    await couriers.setDuty(van.id, true);
    expect(await couriers.reportPosition(bike.id, { ...ACCRA, at: new Date(now - 1000) })).toBe(
      true,
    );
    // A late replay of an older report does not move the courier back.
    expect(
      await couriers.reportPosition(bike.id, { lat: 5.7, lng: -0.1, at: new Date(now - 5000) }),
    ).toBe(false);
    expect(await couriers.get(bike.id)).toMatchObject({ last_lat: ACCRA.lat, last_lng: ACCRA.lng });
    await couriers.reportPosition(van.id, { ...ACCRA, at: new Date(now - 10 * 60_000) });

    const fresh = await couriers.available({ maxAgeMs: 5 * 60_000, zone: 'east-legon', limit: 10 });
    expect(fresh.map((c) => c.id)).toEqual([bike.id]);
    const vans = await couriers.available({
      maxAgeMs: 60 * 60_000,
      vehicles: ['van'],
      zone: 'east-legon',
      limit: 10,
    });
    expect(vans.map((c) => c.id)).toEqual([van.id]);
  });

  it("tells each position listener of a newest report only where its condition, asked inside the report's update, holds", async () => {
    const service = new CouriersService(db, () => now);
    const [kofi, efua] = await Promise.all(
      ['Kofi', 'Efua'].map((name) =>
        service.create({ name, phone: phone(), vehicle: 'motorbike' }),
      ),
    );
    const told: Record<'every' | 'never' | 'kofi', string[]> = { every: [], never: [], kofi: [] };
    const listener = (into: string[]) => async (id: string) => void into.push(id);
    service.onPosition(listener(told.every));
    service.onPosition(listener(told.never), () => 'false');
    service.onPosition(listener(told.kofi), (courierId) => `${courierId} = '${kofi!.id}'`);
    for (const c of [kofi!, efua!])
      await service.reportPosition(c.id, { ...ACCRA, at: new Date(now - 2000) });
    // A late replay is nobody's news.
    await service.reportPosition(kofi!.id, { ...ACCRA, at: new Date(now - 3000) });
    expect(told).toEqual({ every: [kofi!.id, efua!.id], never: [], kofi: [kofi!.id] });
  });

  it('refuses positions outside Ghana or in the future', async () => {
    const c = await couriers.create({ name: 'Esi', phone: phone(), vehicle: 'car' });
    await expect(
      couriers.reportPosition(c.id, { lat: 51.5, lng: -0.12, at: new Date(now) }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(
      couriers.reportPosition(c.id, { ...ACCRA, at: new Date(now + 3_600_000) }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('takes a deactivated courier off duty and keeps them off', async () => {
    const c = await couriers.create({ name: 'Kwesi', phone: phone(), vehicle: 'car' });
    await couriers.setDuty(c.id, true);
    expect(await couriers.update(c.id, { active: false })).toMatchObject({
      active: false,
      on_duty: false,
    });
    await expect(couriers.setDuty(c.id, true)).rejects.toMatchObject({
      code: 'INVALID_TRANSITION',
    });
    expect(await couriers.setDuty(c.id, false)).toMatchObject({ on_duty: false });
  });

  it('answers which of several couriers are active, in one read (the live streams ask at each heartbeat)', async () => {
    const on = await couriers.create({ name: 'Abena', phone: phone(), vehicle: 'motorbike' });
    const off = await couriers.create({ name: 'Yaw', phone: phone(), vehicle: 'motorbike' });
    await couriers.update(off.id, { active: false });
    expect(await couriers.activeAmong([on.id, off.id, on.id, 'cou_unknown'])).toEqual(
      new Set([on.id]),
    );
    expect(await couriers.activeAmong([])).toEqual(new Set());
  });

  it('searches by name or phone without treating % and _ as wildcards', async () => {
    const c = await couriers.create({ name: 'Abena Searchable', phone: phone(), vehicle: 'car' });
    expect((await couriers.list({ search: 'searchable' })).map((r) => r.id)).toEqual([c.id]);
    expect(await couriers.list({ search: '%' })).toEqual([]);
  });
});
