import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { haversineKm, isInGhana, isValidLatLng } from './geo.ts';

describe('haversineKm', () => {
  it('is zero for the same point', () => {
    expect(haversineKm({ lat: 5.6, lng: -0.18 }, { lat: 5.6, lng: -0.18 })).toBe(0);
  });

  it('matches known distances', () => {
    // Accra → Kumasi is about 200 km as the crow flies.
    const accraKumasi = haversineKm({ lat: 5.6037, lng: -0.187 }, { lat: 6.6885, lng: -1.6244 });
    expect(accraKumasi).toBeGreaterThan(195);
    expect(accraKumasi).toBeLessThan(202);
    // One degree of latitude is about 111.2 km.
    expect(haversineKm({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(111.19, 1);
    // Half the equator.
    expect(haversineKm({ lat: 0, lng: 0 }, { lat: 0, lng: 180 })).toBeCloseTo(
      Math.PI * 6371.0088,
      3,
    );
  });

  it('is symmetric and non-negative', () => {
    const pt = fc.record({
      lat: fc.double({ min: -89, max: 89, noNaN: true }),
      lng: fc.double({ min: -179, max: 179, noNaN: true }),
    });
    fc.assert(
      fc.property(pt, pt, (a, b) => {
        const d = haversineKm(a, b);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(haversineKm(b, a)).toBe(d);
      }),
    );
  });
});

describe('isValidLatLng', () => {
  it('accepts finite in-range numbers only', () => {
    expect(isValidLatLng({ lat: 5.6, lng: -0.2 })).toBe(true);
    expect(isValidLatLng({ lat: 91, lng: 0 })).toBe(false);
    expect(isValidLatLng({ lat: 0, lng: -181 })).toBe(false);
    expect(isValidLatLng({ lat: Number.NaN, lng: 0 })).toBe(false);
    expect(isValidLatLng({ lat: '5', lng: 0 })).toBe(false);
    expect(isValidLatLng(null)).toBe(false);
  });
});

describe('isInGhana', () => {
  const inside: Array<[string, number, number]> = [
    ['Accra', 5.6037, -0.187],
    ['Kumasi', 6.6885, -1.6244],
    ['Tamale', 9.4008, -0.8393],
    ['Bolgatanga', 10.7856, -0.8514],
    ['Aflao', 6.1167, 1.1833],
    ['Wa', 10.0601, -2.5099],
    ['Ho', 6.6008, 0.4713],
    ['Bawku', 11.0608, -0.2417],
    ['Navrongo', 10.8951, -1.0921],
    ['Hohoe', 7.1519, 0.4736],
    ['Sunyani', 7.3399, -2.3268],
    ['Elubo', 5.287, -2.764],
    ['Half Assini', 5.053, -2.878],
    ['Keta', 5.918, 0.987],
  ];
  it.each(inside)('%s is in Ghana', (_name, lat, lng) => {
    expect(isInGhana({ lat, lng })).toBe(true);
  });

  const beaches: Array<[string, number, number]> = [
    ['Labadi Beach, Accra', 5.5563, -0.1486],
    ['Jamestown lighthouse, Accra', 5.5315, -0.2125],
    ['Kokrobite Beach', 5.4935, -0.3715],
    ['Tema harbour breakwater', 5.6265, 0.0155],
    ['Takoradi harbour', 4.8845, -1.7425],
    ['Cape Three Points', 4.7395, -2.0925],
    ['Apam beach (bay cut by the simplified coast)', 5.279, -0.741],
    ['Ada Foah estuary', 5.7745, 0.631],
  ];
  it.each(beaches)('%s counts thanks to the coastal buffer', (_name, lat, lng) => {
    expect(isInGhana({ lat, lng })).toBe(true);
  });

  const outside: Array<[string, number, number]> = [
    ['Abidjan', 5.36, -4.008],
    ['Lomé', 6.1375, 1.2123],
    ['Ouagadougou', 12.37, -1.52],
    ['Gulf of Guinea far offshore', 3.0, 0.0],
    ['Null Island', 0, 0],
    // Inside the Ghana bounding box but in a neighbouring country:
    ['Kpalimé, Togo', 6.9, 0.633],
    ['Atakpamé, Togo', 7.533, 1.126],
    ['Kara, Togo', 9.551, 1.186],
    ['Dapaong, Togo', 10.862, 0.205],
    ['Bondoukou, Côte d\u2019Ivoire', 8.04, -2.8],
    ['Agnibilékrou, Côte d\u2019Ivoire', 7.13, -3.2],
    ['Léo, Burkina Faso', 11.1, -2.1],
    ['Pô, Burkina Faso', 11.17, -1.15],
    ['30 km offshore from Accra', 5.26, -0.19],
    ['Offshore beyond Lomé (past the end of the coast)', 6.08, 1.25],
  ];
  it.each(outside)('%s is not in Ghana', (_name, lat, lng) => {
    expect(isInGhana({ lat, lng })).toBe(false);
  });

  it('rejects invalid input instead of throwing', () => {
    expect(isInGhana({ lat: Number.NaN, lng: 0 })).toBe(false);
    expect(isInGhana({ lat: Number.POSITIVE_INFINITY, lng: 0 })).toBe(false);
  });
});
