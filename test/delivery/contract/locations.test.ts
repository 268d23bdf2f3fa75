import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GHANA_AREAS, GHANA_REGIONS } from '../../../src/shared/ghana/index.ts';
import {
  LocationsService,
  type Location,
} from '../../../src/modules/delivery/locations/service.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';

const LIST = '/api/v1/delivery/locations.list';
const ESTIMATE = '/api/v1/delivery/orders.estimate';
// Open country between Tamale and Damongo: no curated area within the 15 km radius.
const JUNCTION = { lat: 9.05, lng: -1.2 };

type ListData = {
  locations: Location[];
  total: number;
  filters: { region: string | null; zone: string | null };
};

let p: TestPlatform;
let s: PartnerSetup;
// The operations and operator routes are mounted by buildApp (the delivery module).
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  s = await createPartner(p, { scopes: ['delivery:read'] });
});
afterAll(() => p.close());

async function list(body: Record<string, unknown> = {}) {
  const res = await s.client.send<{ status: string; message: string; data: ListData }>(
    'POST',
    LIST,
    { body },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ status: 'success', message: expect.any(String) });
  return res.body.data;
}

describe('delivery.locations.list', () => {
  it('lists the curated areas of all 16 regions, without coordinates by default', async () => {
    const data = await list();
    expect(data.total).toBe(data.locations.length);
    expect(data.total).toBeGreaterThanOrEqual(60);
    expect(data.total).toBeGreaterThanOrEqual(GHANA_AREAS.length);
    expect(data.filters).toEqual({ region: null, zone: null });
    expect(new Set(data.locations.map((l) => l.region))).toEqual(
      new Set(GHANA_REGIONS.map((r) => r.name)),
    );
    for (const l of data.locations) {
      expect(Object.keys(l).sort()).toEqual(['id', 'name', 'region', 'zone']);
      for (const v of Object.values(l)) expect(typeof v).toBe('string');
    }
    expect(data.locations.map((l) => l.id)).toContain('loc_accra_osu');
  });

  it('adds {lat, lng} numbers with include_coordinates, and only then', async () => {
    const data = await list({ include_coordinates: true });
    const osu = data.locations.find((l) => l.id === 'loc_accra_osu')!;
    expect(osu.coordinates).toEqual({ lat: expect.any(Number), lng: expect.any(Number) });
    expect(
      data.locations.every(
        (l) => l.coordinates !== undefined || !GHANA_AREAS.some((a) => a.id === l.id),
      ),
    ).toBe(true);
    const off = await list({ include_coordinates: false });
    expect(off.locations.some((l) => 'coordinates' in l)).toBe(false);
  });

  it('filters by region and zone case-insensitively and echoes the filters as given', async () => {
    const accra = await list({ region: 'greater ACCRA' });
    expect(accra.filters).toEqual({ region: 'greater ACCRA', zone: null });
    expect(accra.total).toBeGreaterThan(10);
    expect(accra.locations.every((l) => l.region === 'Greater Accra')).toBe(true);
    expect(accra.total).toBe(accra.locations.length);

    const tema = await list({ region: 'Greater Accra', zone: 'tema metro' });
    expect(tema.filters).toEqual({ region: 'Greater Accra', zone: 'tema metro' });
    expect(tema.total).toBeGreaterThan(0);
    expect(
      tema.locations.every((l) => l.zone === 'Tema Metro' && l.region === 'Greater Accra'),
    ).toBe(true);

    const zoneOnly = await list({ zone: 'ACCRA METRO' });
    expect(zoneOnly.filters).toEqual({ region: null, zone: 'ACCRA METRO' });
    expect(zoneOnly.locations.map((l) => l.zone)).toEqual(
      Array(zoneOnly.total).fill('Accra Metro'),
    );

    const none = await list({ region: 'Atlantis' });
    expect([none.total, none.locations]).toEqual([0, []]);
  });

  it('refuses unknown properties and wrong types with VALIDATION_ERROR', async () => {
    const extra = await s.client.send<any>('POST', LIST, {
      body: { region: 'Ashanti', city: 'Kumasi' },
    });
    expect([extra.status, extra.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(extra.body.details).toEqual([{ field: 'city', issue: 'is not an accepted property' }]);
    const bad = await s.client.send<any>('POST', LIST, { body: { include_coordinates: 'yes' } });
    expect(bad.body.details).toEqual([{ field: 'include_coordinates', issue: 'must be boolean' }]);
  });

  it('answers 403 INSUFFICIENT_SCOPE to a key without delivery:read', async () => {
    const writer = await createPartner(p, { scopes: ['delivery:write'] });
    const res = await writer.client.send<any>('POST', LIST, { body: {} });
    expect([res.status, res.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    expect(res.body.message).toContain('delivery:read');
  });
});

describe('live areas from the operator API', () => {
  it('adds an area (region normalised), lists it and uses it to resolve points', async () => {
    const before = await s.client.send<any>('POST', ESTIMATE, {
      body: {
        delivery_location: { coordinates: JUNCTION },
        pickup_location: { coordinates: JUNCTION },
      },
    });
    expect(before.body.data.location_coverage.service_area).not.toBe('Fufulso Junction');

    const created = await p.admin('POST', '/locations', {
      name: 'Fufulso Junction',
      region: 'savannah',
      zone: 'Central Gonja',
      coordinates: JUNCTION,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^loc_[0-9A-Z]{26}$/),
      name: 'Fufulso Junction',
      region: 'Savannah',
      zone: 'Central Gonja',
      coordinates: JUNCTION,
    });

    const savannah = await list({ region: 'SAVANNAH', include_coordinates: true });
    expect(savannah.locations).toContainEqual(created.body);
    const zone = await list({ zone: 'central gonja' });
    expect(zone.locations).toEqual([
      { id: created.body.id, name: 'Fufulso Junction', region: 'Savannah', zone: 'Central Gonja' },
    ]);

    const after = await s.client.send<any>('POST', ESTIMATE, {
      body: {
        delivery_location: { coordinates: JUNCTION },
        pickup_location: { coordinates: JUNCTION },
      },
    });
    expect(after.body.data.location_coverage.service_area).toBe('Fufulso Junction');
    expect(after.body.data.pickup_region).toBe('Savannah');
    expect(after.body.data.dropoff_region).toBe('Savannah');
    expect(after.body.data.dropoff_description).toBe('Fufulso Junction, Savannah');
  });

  it('lists an area without coordinates but never shows coordinates for it', async () => {
    const created = await p.admin('POST', '/locations', {
      name: 'Kejetia Annex',
      region: 'Ashanti',
      zone: 'Kumasi Metro',
    });
    expect(created.status).toBe(201);
    const data = await list({ region: 'ashanti', include_coordinates: true });
    expect(data.locations).toContainEqual({
      id: created.body.id,
      name: 'Kejetia Annex',
      region: 'Ashanti',
      zone: 'Kumasi Metro',
    });
  });

  it('lists every area with coordinates for operators', async () => {
    const res = await p.admin('GET', '/locations?region=savannah');
    expect(res.status).toBe(200);
    expect(res.body.filters).toEqual({ region: 'savannah', zone: null });
    expect(res.body.locations.length).toBeGreaterThan(0);
    expect(
      res.body.locations.find((l: Location) => l.name === 'Fufulso Junction')?.coordinates,
    ).toEqual(JUNCTION);
  });

  it('refuses an unknown region, coordinates outside Ghana and malformed bodies with details', async () => {
    const region = await p.admin('POST', '/locations', {
      name: 'X',
      region: 'Atlantis',
      zone: 'Y',
    });
    expect([region.status, region.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(region.body.details).toEqual([
      { field: 'region', issue: expect.stringContaining('Greater Accra') },
    ]);
    const lome = await p.admin('POST', '/locations', {
      name: 'Lomé',
      region: 'Volta',
      zone: 'Border',
      coordinates: { lat: 6.13, lng: 1.222 },
    });
    expect(lome.body.details).toEqual([
      { field: 'coordinates', issue: 'must be a point inside Ghana' },
    ]);
    const blank = await p.admin('POST', '/locations', { name: '  ', region: 'Volta', zone: 'Ho' });
    expect(blank.body.details).toEqual([{ field: 'name', issue: 'must not be blank' }]);
    const missing = await p.admin('POST', '/locations', { name: 'Ho Market', region: 'Volta' });
    expect(missing.body.details).toEqual([{ field: 'zone', issue: 'is required' }]);
    const half = await p.admin('POST', '/locations', {
      name: 'Ho Market',
      region: 'Volta',
      zone: 'Ho',
      coordinates: { lat: 6.6 },
    });
    expect(half.body.details).toEqual([{ field: 'coordinates.lng', issue: 'is required' }]);
    const extra = await p.admin('POST', '/locations', {
      name: 'Ho Market',
      region: 'Volta',
      zone: 'Ho',
      id: 'loc_mine',
    });
    expect(extra.body.details).toEqual([{ field: 'id', issue: 'is not an accepted property' }]);
    expect(
      (
        await p.admin(
          'POST',
          '/locations',
          { name: 'A', region: 'Volta', zone: 'Ho' },
          'wrong-token-0123456789',
        )
      ).status,
    ).toBe(401);
  });

  it('reaches another instance within its refresh interval, and at once after a local create', async () => {
    let now = 1_000_000;
    const other = new LocationsService(p.app.platform.db, 15, () => now, 3000);
    const names = async () => (await other.list({ region: 'Oti' })).locations.map((l) => l.name);
    expect(await names()).not.toContain('Dambai Lakeside');
    await p.admin('POST', '/locations', { name: 'Dambai Lakeside', region: 'OTI', zone: 'Krachi' });
    expect(await names()).not.toContain('Dambai Lakeside'); // still within the refresh interval
    now += 3000;
    expect(await names()).toContain('Dambai Lakeside');

    const local = await other.create({
      name: 'Dambai Market',
      region: 'oti',
      zone: 'Krachi',
      coordinates: { lat: 8.07, lng: 0.18 },
    });
    expect(await names()).toContain('Dambai Market');
    expect(await other.findById(local.id)).toEqual(local);
    expect(await other.resolve({ lat: 8.07, lng: 0.18 })).toEqual({
      region: 'Oti',
      serviceArea: 'Dambai Market',
      areaId: local.id,
    });
    // findById also finds what another instance added since the last refresh.
    const fresh = await p.admin('POST', '/locations', {
      name: 'Dambai Port',
      region: 'Oti',
      zone: 'Krachi',
    });
    expect(await other.findById(fresh.body.id)).toEqual(fresh.body);
    expect(await other.findById('loc_nope')).toBeNull();
    expect(await other.findById('loc_accra_osu')).toMatchObject({
      name: 'Osu',
      coordinates: expect.any(Object),
    });
    expect(await other.resolve({ lat: 51.5, lng: -0.12 })).toBeNull();
  });
});
