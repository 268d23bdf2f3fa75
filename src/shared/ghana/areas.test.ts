import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { filterAreas, findAreaById, nearestRegion, resolveArea } from './areas.ts';
import type { Area } from './areas.ts';
import { haversineKm } from './geo.ts';
import { GHANA_AREAS, GHANA_REGIONS } from './ghana-areas.ts';

describe('resolveArea', () => {
  it('returns the nearest known area', () => {
    expect(resolveArea({ lat: 5.5565, lng: -0.18 }, GHANA_AREAS, GHANA_REGIONS)).toEqual({
      region: 'Greater Accra',
      serviceArea: 'Osu',
      areaId: 'loc_accra_osu',
    });
    expect(resolveArea({ lat: 6.6885, lng: -1.6244 }, GHANA_AREAS, GHANA_REGIONS)?.areaId).toBe(
      'loc_kumasi_adum',
    );
    expect(resolveArea({ lat: 9.4008, lng: -0.8393 }, GHANA_AREAS, GHANA_REGIONS)).toEqual({
      region: 'Northern',
      serviceArea: 'Tamale',
      areaId: 'loc_tamale',
    });
  });

  it('falls back to the nearest region centroid beyond the radius', () => {
    // Rural Bono East, well away from every curated town.
    const p = { lat: 8.2, lng: -1.1 };
    expect(GHANA_AREAS.every((a) => haversineKm(p, a.coordinates) > 15)).toBe(true);
    expect(resolveArea(p, GHANA_AREAS, GHANA_REGIONS)).toEqual({
      region: 'Bono East',
      serviceArea: 'Bono East',
      areaId: null,
    });
  });

  it('honours a custom radius', () => {
    const nearTamale = { lat: 9.5, lng: -0.84 }; // ~11 km from Tamale, ~14 km from Savelugu
    expect(resolveArea(nearTamale, GHANA_AREAS, GHANA_REGIONS)?.areaId).toBe('loc_tamale');
    expect(resolveArea(nearTamale, GHANA_AREAS, GHANA_REGIONS, 5)?.areaId).toBeNull();
  });

  it('returns null outside Ghana', () => {
    expect(resolveArea({ lat: 6.1375, lng: 1.2123 }, GHANA_AREAS, GHANA_REGIONS)).toBeNull();
    expect(resolveArea({ lat: 0, lng: 0 }, GHANA_AREAS, GHANA_REGIONS)).toBeNull();
  });

  it('uses live areas passed by the caller, curated first on ties', () => {
    const live: Area = {
      id: 'loc_live_mall',
      name: 'Junction Mall',
      region: 'Greater Accra',
      zone: 'Accra Metro',
      coordinates: { lat: 5.6, lng: -0.08 },
    };
    const merged = [...GHANA_AREAS, live];
    expect(resolveArea({ lat: 5.6, lng: -0.08 }, merged, GHANA_REGIONS)?.areaId).toBe(
      'loc_live_mall',
    );
    const twin: Area = { ...live, id: 'loc_live_twin' };
    expect(resolveArea({ lat: 5.6, lng: -0.08 }, [...merged, twin], GHANA_REGIONS)?.areaId).toBe(
      'loc_live_mall',
    );
  });

  it('agrees with a brute-force scan (pre-filter never drops a candidate)', () => {
    const pt = fc.record({
      lat: fc.double({ min: 4.8, max: 11, noNaN: true }),
      lng: fc.double({ min: -3, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(pt, fc.integer({ min: 1, max: 60 }), (p, radius) => {
        const got = resolveArea(p, GHANA_AREAS, GHANA_REGIONS, radius);
        if (got === null || got.areaId === null) {
          if (got !== null)
            expect(GHANA_AREAS.every((a) => haversineKm(p, a.coordinates) > radius)).toBe(true);
          return;
        }
        const best = Math.min(...GHANA_AREAS.map((a) => haversineKm(p, a.coordinates)));
        const chosen = GHANA_AREAS.find((a) => a.id === got.areaId)!;
        expect(haversineKm(p, chosen.coordinates)).toBe(best);
      }),
      { numRuns: 300 },
    );
  });

  it('stays fast for ~1000 areas', () => {
    const many: Area[] = Array.from({ length: 1000 }, (_, i) => ({
      id: `loc_live_${i}`,
      name: `Live ${i}`,
      region: 'Greater Accra',
      zone: 'Accra Metro',
      coordinates: { lat: 5 + ((i * 37) % 600) / 100, lng: -3 + ((i * 53) % 400) / 100 },
    }));
    const t0 = performance.now();
    for (let i = 0; i < 1000; i++)
      resolveArea({ lat: 5.6 + i / 1000, lng: -0.2 }, many, GHANA_REGIONS);
    // 1000 lookups over 1000 areas; generous bound to stay stable on slow CI.
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe('nearestRegion', () => {
  it('picks the closest centroid', () => {
    expect(nearestRegion({ lat: 10.75, lng: -0.8 }, GHANA_REGIONS)?.name).toBe('Upper East');
    expect(nearestRegion({ lat: 5.8, lng: 0.0 }, GHANA_REGIONS)?.name).toBe('Greater Accra');
    expect(nearestRegion({ lat: 5, lng: 0 }, [])).toBeNull();
  });
});

describe('filterAreas / findAreaById', () => {
  it('filters case-insensitively by region and zone', () => {
    const tema = filterAreas(GHANA_AREAS, { zone: 'tema metro' });
    expect(tema.length).toBeGreaterThan(5);
    expect(tema.every((a) => a.zone === 'Tema Metro')).toBe(true);
    const ashanti = filterAreas(GHANA_AREAS, { region: 'ASHANTI', zone: null });
    expect(ashanti.every((a) => a.region === 'Ashanti')).toBe(true);
    expect(filterAreas(GHANA_AREAS, {})).toHaveLength(GHANA_AREAS.length);
    expect(filterAreas(GHANA_AREAS, { region: 'Nowhere' })).toEqual([]);
  });

  it('finds by id', () => {
    expect(findAreaById(GHANA_AREAS, 'loc_accra_osu')?.name).toBe('Osu');
    expect(findAreaById(GHANA_AREAS, 'loc_missing')).toBeUndefined();
  });
});
