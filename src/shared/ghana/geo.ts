/** Geometry helpers: great-circle distance and "is this point in Ghana". */

export type LatLng = { lat: number; lng: number };

/** Mean Earth radius (IUGG), km. */
const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/** True when both members are finite numbers within WGS84 ranges. */
export function isValidLatLng(p: unknown): p is LatLng {
  if (typeof p !== 'object' || p === null) return false;
  const { lat, lng } = p as Record<string, unknown>;
  return (
    typeof lat === 'number' &&
    typeof lng === 'number' &&
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    lat >= -90 &&
    lat <= 90 &&
    lng >= -180 &&
    lng <= 180
  );
}

/** Great-circle distance in km (haversine). Symmetric: haversineKm(a, b) === haversineKm(b, a). */
export function haversineKm(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLng = (b.lng - a.lng) * RAD;
  const s1 = Math.sin(dLat / 2);
  const s2 = Math.sin(dLng / 2);
  const h = s1 * s1 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * s2 * s2;
  // Clamp: rounding can push h a hair above 1 for antipodal points.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1, h)));
}

/**
 * Simplified border of Ghana as [lat, lng], counter-clockwise, starting at the
 * Côte d'Ivoire border on the coast. Hand-simplified from Natural Earth with the
 * coast and the Togo border near Aflao/Lomé refined (the two towns are ~3 km
 * apart). Good to a few km: fine for "do we serve this point", not for surveying.
 */
const GHANA_BORDER: ReadonlyArray<readonly [number, number]> = [
  // Coast, west to east (indices 0..COAST_LAST).
  [5.095, -3.106], // Côte d'Ivoire border at the coast (Newtown)
  [5.05, -2.88], // Half Assini
  [4.87, -2.24], // Axim
  [4.74, -2.095], // Cape Three Points
  [4.8, -1.96], // Busua / Dixcove
  [4.88, -1.74], // Takoradi
  [5.01, -1.61], // Shama
  [5.08, -1.35], // Elmina
  [5.1, -1.245], // Cape Coast
  [5.2, -1.07], // Saltpond
  [5.275, -0.74], // Apam
  [5.34, -0.62], // Winneba
  [5.39, -0.5], // Senya Beraku
  [5.49, -0.37], // Kokrobite
  [5.53, -0.215], // Jamestown, Accra
  [5.555, -0.15], // Labadi
  [5.59, -0.07], // Nungua
  [5.63, 0.01], // Tema harbour
  [5.7, 0.11], // Prampram
  [5.775, 0.63], // Ada Foah
  [5.91, 0.99], // Keta
  [6.1, 1.2], // Togo border at the coast (between Aflao and Lomé)
  // Togo border, south to north.
  [6.16, 1.188],
  [6.25, 1.06], // Dzodze / Noepé
  [6.55, 0.76],
  [6.8, 0.62],
  [6.914, 0.57], // west of Kpalimé
  [7.1, 0.62], // Wli
  [7.45, 0.55],
  [8.312, 0.712],
  [8.677, 0.461],
  [9.465, 0.4],
  [10.191, 0.368],
  [10.707, -0.05],
  [11.1, 0.01], // Ghana / Togo / Burkina Faso tripoint
  // Burkina Faso border, east to west.
  [11.12, -0.44], // north of Bawku
  [10.937, -0.762],
  [11.01, -1.203], // Paga
  [10.963, -2.94],
  // Côte d'Ivoire border (Black Volta, then south), north to south.
  [10.395, -2.964],
  [9.642, -2.827],
  [8.22, -2.562],
  [7.38, -2.984],
  [6.25, -3.244],
  [5.389, -2.811], // Elubo
];

/** Vertices 0..COAST_LAST form the sea coast (the Gulf of Guinea side). */
const COAST_LAST = 21;

/**
 * Seaward tolerance, km. The simplified coast cuts across small bays and
 * headlands; beaches and harbour fronts in Accra, Tema or Takoradi must count.
 */
const COASTAL_BUFFER_KM = 5;

/** Quick reject before the polygon test. */
const BBOX = { minLat: 4.5, maxLat: 11.25, minLng: -3.35, maxLng: 1.3 };

/** Ray casting (even-odd rule) on lat/lng treated as planar; fine at this scale. */
function insidePolygon(p: LatLng, ring: ReadonlyArray<readonly [number, number]>): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [yi, xi] = ring[i]!;
    const [yj, xj] = ring[j]!;
    if (yi > p.lat !== yj > p.lat) {
      const xCross = ((xj - xi) * (p.lat - yi)) / (yj - yi) + xi;
      if (p.lng < xCross) inside = !inside;
    }
  }
  return inside;
}

/**
 * Distance (km) from p to the coastal segment a→b, or Infinity when the
 * perpendicular foot falls outside the segment. Only perpendicular distances
 * count so the buffer never spills round the land borders (Lomé sits just past
 * the eastern end of the coast).
 */
function perpendicularKm(
  p: LatLng,
  a: readonly [number, number],
  b: readonly [number, number],
): number {
  // Local equirectangular projection around p, km.
  const kx = 111.32 * Math.cos(p.lat * RAD);
  const ky = 110.57;
  const ax = (a[1] - p.lng) * kx;
  const ay = (a[0] - p.lat) * ky;
  const bx = (b[1] - p.lng) * kx;
  const by = (b[0] - p.lat) * ky;
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  if (len2 === 0) return Infinity;
  const t = -(ax * dx + ay * dy) / len2;
  if (t < 0 || t > 1) return Infinity;
  const fx = ax + t * dx;
  const fy = ay + t * dy;
  return Math.hypot(fx, fy);
}

/** True for points in Ghana, including a thin strip of sea along the coast. */
export function isInGhana(p: LatLng): boolean {
  if (!isValidLatLng(p)) return false;
  if (p.lat < BBOX.minLat || p.lat > BBOX.maxLat || p.lng < BBOX.minLng || p.lng > BBOX.maxLng) {
    return false;
  }
  if (insidePolygon(p, GHANA_BORDER)) return true;
  for (let i = 0; i < COAST_LAST; i++) {
    if (perpendicularKm(p, GHANA_BORDER[i]!, GHANA_BORDER[i + 1]!) <= COASTAL_BUFFER_KM)
      return true;
  }
  return false;
}
