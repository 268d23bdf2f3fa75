import { describe, expect, it } from 'vitest';
import { trackingMapSettings } from './map-settings.ts';

const read = (env: Record<string, string>) => {
  const problems: string[] = [];
  return { map: trackingMapSettings(env, problems), problems };
};
const ATTR = '© OpenStreetMap contributors';

describe('tracking map settings', () => {
  it('is off (no problem) when neither is set, or the URL is blank', () => {
    expect(read({})).toEqual({ map: undefined, problems: [] });
    expect(read({ TRACKING_MAP_TILES_URL: '  ' })).toEqual({ map: undefined, problems: [] });
  });

  it('reads an https template and its origin, which is all the CSP will name', () => {
    expect(
      read({
        TRACKING_MAP_TILES_URL: 'https://tile.example.org:8443/osm/{z}/{x}/{y}{r}.png?key=abc',
        TRACKING_MAP_ATTRIBUTION: ` ${ATTR} `,
      }),
    ).toEqual({
      map: {
        tilesUrl: 'https://tile.example.org:8443/osm/{z}/{x}/{y}{r}.png?key=abc',
        tileOrigin: 'https://tile.example.org:8443',
        attribution: ATTR,
      },
      problems: [],
    });
  });

  it('allows plain http only for a loopback tile server (development and tests)', () => {
    for (const host of ['127.0.0.1:9000', 'localhost', '[::1]:8080']) {
      expect(
        read({
          TRACKING_MAP_TILES_URL: `http://${host}/{z}/{x}/{y}.png`,
          TRACKING_MAP_ATTRIBUTION: ATTR,
        }).map?.tileOrigin,
      ).toBe(`http://${host}`);
    }
    expect(
      read({
        TRACKING_MAP_TILES_URL: 'http://tile.example.org/{z}/{x}/{y}.png',
        TRACKING_MAP_ATTRIBUTION: ATTR,
      }).problems,
    ).toEqual([
      'TRACKING_MAP_TILES_URL must be an https URL (plain http only for 127.0.0.1 or localhost, in development and tests) (got "http://tile.example.org/{z}/{x}/{y}.png")',
    ]);
  });

  it.each([
    ['https://tile.example.org/{z}/{x}.png', 'must contain {y}'],
    ['https://tile.example.org/tiles.png', 'must contain {z}, {x}, {y}'],
    [
      'https://{s}.tile.example.org/{z}/{x}/{y}.png',
      'may only use the placeholders {z}, {x}, {y} and {r}',
    ],
    ['https://{z}.tile.example.org/{z}/{x}/{y}.png', 'must have a fixed host'],
    ['/tiles/{z}/{x}/{y}.png', 'must be an absolute URL'],
    ['ftp://tile.example.org/{z}/{x}/{y}.png', 'must be an https URL'],
    ['javascript:alert(1)//{z}/{x}/{y}', 'must be an https URL'],
    ['https://user:pw@tile.example.org/{z}/{x}/{y}.png', 'must not carry credentials'],
  ])('refuses %s', (url, why) => {
    const { map, problems } = read({ TRACKING_MAP_TILES_URL: url, TRACKING_MAP_ATTRIBUTION: ATTR });
    expect(map).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`TRACKING_MAP_TILES_URL ${why}`);
  });

  it('requires the attribution with the URL, of reasonable length, and never alone', () => {
    const url = 'https://tile.example.org/{z}/{x}/{y}.png';
    expect(read({ TRACKING_MAP_TILES_URL: url }).problems).toEqual([
      'TRACKING_MAP_ATTRIBUTION is required with TRACKING_MAP_TILES_URL (the credit the tile provider asks for)',
    ]);
    expect(
      read({ TRACKING_MAP_TILES_URL: url, TRACKING_MAP_ATTRIBUTION: 'x'.repeat(201) }).problems,
    ).toEqual(['TRACKING_MAP_ATTRIBUTION must be at most 200 characters']);
    expect(read({ TRACKING_MAP_ATTRIBUTION: ATTR }).problems).toEqual([
      'TRACKING_MAP_ATTRIBUTION is set without TRACKING_MAP_TILES_URL',
    ]);
  });
});
