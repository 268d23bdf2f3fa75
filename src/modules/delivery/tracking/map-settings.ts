import type { Env } from '../../../platform/settings.ts';

/** The tracking page's map: off unless a tile server is configured. */
export interface TrackingMapSettings {
  /** A Leaflet tile URL template with {z}, {x} and {y}, e.g. https://tile.example.org/{z}/{x}/{y}.png. */
  tilesUrl: string;
  /** The only origin added to the tracking page's img-src (tiles come from one fixed host). */
  tileOrigin: string;
  /** Plain text credit shown under the map (tile providers require one); always escaped. */
  attribution: string;
}

const ATTRIBUTION_MAX = 200;
// A phone can never reach the server's own loopback, so plain http there only serves development and tests.
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** TRACKING_MAP_TILES_URL and TRACKING_MAP_ATTRIBUTION: both or neither. */
export function trackingMapSettings(env: Env, problems: string[]): TrackingMapSettings | undefined {
  const raw = env.TRACKING_MAP_TILES_URL?.trim() ?? '';
  const attribution = env.TRACKING_MAP_ATTRIBUTION?.trim() ?? '';
  if (!raw) {
    if (attribution)
      problems.push('TRACKING_MAP_ATTRIBUTION is set without TRACKING_MAP_TILES_URL');
    return undefined;
  }
  const bad = (why: string) => void problems.push(`TRACKING_MAP_TILES_URL ${why} (got "${raw}")`);
  const missing = ['{z}', '{x}', '{y}'].filter((p) => !raw.includes(p));
  if (missing.length) return bad(`must contain ${missing.join(', ')}`);
  // Only {z}, {x}, {y} and {r}: a {s} subdomain or any other placeholder could change the host.
  if (/\{(?![zxyr]\})[^}]*\}/.test(raw))
    return bad('may only use the placeholders {z}, {x}, {y} and {r}');
  let url: URL;
  try {
    url = new URL(raw.replace(/\{[zxyr]\}/g, '0'));
  } catch {
    return bad('must be an absolute URL');
  }
  if (url.username || url.password) return bad('must not carry credentials');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    return bad(
      'must be an https URL (plain http only for 127.0.0.1 or localhost, in development and tests)',
    );
  }
  if ((raw.split('/')[2] ?? '').includes('{')) return bad('must have a fixed host');
  if (!attribution) {
    problems.push(
      'TRACKING_MAP_ATTRIBUTION is required with TRACKING_MAP_TILES_URL (the credit the tile provider asks for)',
    );
    return undefined;
  }
  if (attribution.length > ATTRIBUTION_MAX) {
    problems.push(`TRACKING_MAP_ATTRIBUTION must be at most ${ATTRIBUTION_MAX} characters`);
    return undefined;
  }
  return { tilesUrl: raw, tileOrigin: url.origin, attribution };
}
