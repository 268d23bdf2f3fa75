import { describe, expect, it } from 'vitest';
import { buyerPoint } from './buyer-point.ts';

describe('buyerPoint', () => {
  const p = { lat: 5.635, lng: -0.161 };

  it('takes either form, or neither', () => {
    expect(buyerPoint({ coordinates: p })).toEqual({ point: p });
    expect(buyerPoint(p)).toEqual({ point: p });
    expect(buyerPoint({})).toEqual({ point: undefined });
  });

  it('accepts both forms when they name the same point', () => {
    expect(buyerPoint({ coordinates: p, ...p })).toEqual({ point: p });
  });

  it('refuses both forms when they disagree, in either member', () => {
    expect(buyerPoint({ coordinates: p, lat: 5.636, lng: p.lng })).toEqual({ conflict: true });
    expect(buyerPoint({ coordinates: p, lat: p.lat, lng: -0.162 })).toEqual({ conflict: true });
  });
});
