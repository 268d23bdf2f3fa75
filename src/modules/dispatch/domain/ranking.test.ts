import { describe, expect, it } from 'vitest';
import { rankCandidates, zoneOf } from './ranking.ts';

const PICKUP = { lat: 5.549, lng: -0.209 };
const north = (km: number) => ({ lat: PICKUP.lat + km / 111.2, lng: PICKUP.lng });

describe('rankCandidates', () => {
  it('puts the nearest free courier first, with distances in km', () => {
    const ranked = rankCandidates(PICKUP, [
      { id: 'c', position: north(5) },
      { id: 'a', position: north(1) },
      { id: 'b', position: north(2) },
    ]);
    expect(ranked.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(ranked[0]!.km).toBeCloseTo(1, 1);
  });

  it('ranks by id alone without pickup coordinates', () => {
    const ranked = rankCandidates(null, [
      { id: 'z', position: north(1) },
      { id: 'x', position: north(50) },
    ]);
    expect(ranked).toEqual([
      { id: 'x', km: null },
      { id: 'z', km: null },
    ]);
  });

  it('answers nothing for no candidates', () => {
    expect(rankCandidates(PICKUP, [])).toEqual([]);
  });
});

describe('zoneOf', () => {
  it('turns a region name into the zone id couriers list', () => {
    expect(zoneOf('Greater Accra')).toBe('greater-accra');
    expect(zoneOf('Western North')).toBe('western-north');
    expect(zoneOf(null)).toBeNull();
    expect(zoneOf('  --  ')).toBeNull();
  });
});
