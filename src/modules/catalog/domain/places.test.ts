import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { areaNamedIn, decodeCursor, encodeCursor } from './places.ts';

const at = { lat: 5.6, lng: -0.2 };
const AREAS = [
  { id: 'legon', name: 'Legon', coordinates: at },
  { id: 'east_legon', name: 'East Legon', coordinates: at },
  { id: 'la', name: 'La (Labadi)', coordinates: at },
  { id: 'osu', name: 'Osu', coordinates: at },
];

describe('areaNamedIn', () => {
  it('finds an area named as whole words, preferring the longest name', () => {
    expect(areaNamedIn('12 Lagos Avenue, East Legon, Accra', AREAS)?.id).toBe('east_legon');
    expect(areaNamedIn('University of Ghana, LEGON', AREAS)?.id).toBe('legon');
    expect(areaNamedIn('Oxford St., Osu', AREAS)?.id).toBe('osu');
    expect(areaNamedIn('Labadi Beach Hotel', AREAS)?.id).toBe('la');
  });

  it('ignores names inside other words and two-letter names', () => {
    expect(areaNamedIn('Osuman Street', AREAS)).toBeNull();
    expect(areaNamedIn('La Beach Road', AREAS)).toBeNull();
    expect(areaNamedIn('somewhere unknown', AREAS)).toBeNull();
  });
});

describe('catalog cursors', () => {
  it('round-trip any id and refuse anything else', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_]{1,64}$/), (id) => {
        expect(decodeCursor(encodeCursor(id))).toBe(id);
      }),
    );
    for (const bad of [
      '',
      'not a cursor',
      Buffer.from('p1:a b').toString('base64url'),
      Buffer.from('x:prd_1').toString('base64url'),
    ]) {
      expect(decodeCursor(bad)).toBeNull();
    }
  });
});
