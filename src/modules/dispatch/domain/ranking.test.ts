import { describe, expect, it } from 'vitest';
import { LOAD_PENALTY_KM, rankCandidates, zoneOf } from './ranking.ts';

const PICKUP = { lat: 5.549, lng: -0.209 };
const north = (km: number) => ({ lat: PICKUP.lat + km / 111.2, lng: PICKUP.lng });

describe('rankCandidates', () => {
  it('puts the nearest free courier first, with distances in km', () => {
    const ranked = rankCandidates(PICKUP, [
      { id: 'c', position: north(5), load: 0 },
      { id: 'a', position: north(1), load: 0 },
      { id: 'b', position: north(2), load: 0 },
    ]);
    expect(ranked.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(ranked[0]!.km).toBeCloseTo(1, 1);
  });

  it('counts each job held as LOAD_PENALTY_KM, so a free courier a little further beats a busy one', () => {
    const ranked = rankCandidates(PICKUP, [
      { id: 'busy', position: north(0.1), load: 1 },
      { id: 'free', position: north(LOAD_PENALTY_KM - 0.5), load: 0 },
      { id: 'far', position: north(LOAD_PENALTY_KM + 1), load: 0 },
    ]);
    expect(ranked.map((r) => r.id)).toEqual(['free', 'busy', 'far']);
  });

  it('ranks by load alone without pickup coordinates, ties by id', () => {
    const ranked = rankCandidates(null, [
      { id: 'z', position: north(1), load: 0 },
      { id: 'y', position: north(9), load: 2 },
      { id: 'x', position: north(50), load: 0 },
    ]);
    expect(ranked).toEqual([
      { id: 'x', km: null, score: 0 },
      { id: 'z', km: null, score: 0 },
      { id: 'y', km: null, score: 2 * LOAD_PENALTY_KM },
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
