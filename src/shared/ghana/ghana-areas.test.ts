import { describe, expect, it } from 'vitest';
import { isInGhana } from './geo.ts';
import { CENTRAL_ACCRA, GHANA_AREAS, GHANA_REGIONS } from './ghana-areas.ts';

describe('GHANA_REGIONS', () => {
  it('lists the 16 regions once each', () => {
    expect(GHANA_REGIONS).toHaveLength(16);
    expect(new Set(GHANA_REGIONS.map((r) => r.name)).size).toBe(16);
    expect(new Set(GHANA_REGIONS.map((r) => r.id)).size).toBe(16);
    expect(GHANA_REGIONS.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'Greater Accra',
        'Ashanti',
        'Western',
        'Western North',
        'Central',
        'Eastern',
        'Volta',
        'Oti',
        'Northern',
        'Savannah',
        'North East',
        'Upper East',
        'Upper West',
        'Bono',
        'Bono East',
        'Ahafo',
      ]),
    );
  });

  it('has centroids inside Ghana', () => {
    for (const r of GHANA_REGIONS) expect(isInGhana(r.centroid), r.name).toBe(true);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(GHANA_REGIONS)).toBe(true);
    expect(Object.isFrozen(GHANA_REGIONS[0])).toBe(true);
  });
});

describe('GHANA_AREAS', () => {
  it('has at least 70 areas with unique stable slugs', () => {
    expect(GHANA_AREAS.length).toBeGreaterThanOrEqual(70);
    const ids = GHANA_AREAS.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^loc_[a-z0-9_]+$/);
  });

  it('only uses known regions and every region has areas', () => {
    const names = new Set(GHANA_REGIONS.map((r) => r.name));
    for (const a of GHANA_AREAS) expect(names.has(a.region), `${a.id}: ${a.region}`).toBe(true);
    for (const r of GHANA_REGIONS) {
      expect(
        GHANA_AREAS.some((a) => a.region === r.name),
        r.name,
      ).toBe(true);
    }
  });

  it('places every area inside Ghana', () => {
    for (const a of GHANA_AREAS) expect(isInGhana(a.coordinates), a.id).toBe(true);
  });

  it('has an area for every region capital', () => {
    for (const r of GHANA_REGIONS) {
      const capital = GHANA_AREAS.find(
        (a) =>
          a.region === r.name &&
          [a.name, a.zone].some((n) => r.capital.includes(n) || n.includes(r.capital)),
      );
      expect(capital, r.capital).toBeDefined();
    }
  });

  it('covers the major zones partners ask for', () => {
    const names = new Set(GHANA_AREAS.map((a) => a.name));
    for (const n of [
      'Accra Central',
      'Osu',
      'East Legon',
      'Madina',
      'Adenta',
      'Spintex',
      'Airport Residential',
      'Achimota',
      'Dansoman',
      'Kaneshie',
      'Lapaz',
      'Teshie',
      'Nungua',
      'Tema Community 1',
      'Ashaiman',
      'Kasoa',
      'Weija',
      'Dodowa',
      'Adum',
      'Asokwa',
      'Bantama',
      'Suame',
      'KNUST',
      'Ejisu',
      'Obuasi',
      'Takoradi',
      'Sekondi',
      'Tarkwa',
      'Cape Coast',
      'Elmina',
      'Winneba',
      'Tamale',
      'Bolgatanga',
      'Wa',
      'Ho',
      'Hohoe',
      'Keta',
      'Aflao',
      'Koforidua',
      'Nkawkaw',
      'Akosombo',
      'Sunyani',
      'Techiman',
      'Dambai',
      'Damongo',
      'Nalerigu',
      'Sefwi Wiawso',
      'Goaso',
    ]) {
      expect(names.has(n), n).toBe(true);
    }
  });

  it('groups Accra, Tema and Kumasi neighbourhoods into metro zones', () => {
    const zoneOf = (id: string) => GHANA_AREAS.find((a) => a.id === id)?.zone;
    expect(zoneOf('loc_accra_osu')).toBe('Accra Metro');
    expect(zoneOf('loc_tema_community_1')).toBe('Tema Metro');
    expect(zoneOf('loc_kumasi_adum')).toBe('Kumasi Metro');
  });

  it('exposes central Accra as the default pickup', () => {
    expect(isInGhana(CENTRAL_ACCRA)).toBe(true);
  });
});
