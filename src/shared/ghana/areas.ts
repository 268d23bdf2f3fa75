/**
 * Area resolution: which known area (or at least which region) a point is in.
 * Pure: the caller passes the merged curated + operator-added (live) areas.
 */
import { haversineKm, isInGhana } from './geo.ts';
import type { LatLng } from './geo.ts';

export interface Region {
  /** Stable slug, e.g. 'reg_greater_accra'. */
  id: string;
  name: string;
  capital: string;
  /** Rough geographic centre; used only as a fallback label. */
  centroid: LatLng;
}

export interface Area {
  /** Stable slug, e.g. 'loc_accra_osu'; partners store it as delivery.location_id. */
  id: string;
  name: string;
  region: string;
  zone: string;
  coordinates: LatLng;
}

export interface ResolvedArea {
  region: string;
  /** The area's name, or the region's name when no area is close enough. */
  serviceArea: string;
  areaId: string | null;
}

export const DEFAULT_AREA_RADIUS_KM = 15;

/** Generous km per degree of latitude so the pre-filter never drops a true candidate. */
const KM_PER_DEG_LAT_MIN = 110.5;

/**
 * Nearest area within radiusKm, else the region with the nearest centroid,
 * else null when the point is outside Ghana.
 *
 * Linear scan with a cheap lat/lng box pre-filter: a few thousand areas cost
 * microseconds, so no spatial index is worth its complexity here.
 * Ties keep the earlier entry, so callers list curated areas before live ones.
 */
export function resolveArea(
  p: LatLng,
  areas: readonly Area[],
  regions: readonly Region[],
  radiusKm: number = DEFAULT_AREA_RADIUS_KM,
): ResolvedArea | null {
  if (!isInGhana(p)) return null;

  const dLat = radiusKm / KM_PER_DEG_LAT_MIN;
  // cos shrinks with latitude; use the box edge nearest the pole to stay generous.
  const cosLat = Math.cos(((Math.abs(p.lat) + dLat) * Math.PI) / 180);
  const dLng = cosLat > 0.01 ? dLat / cosLat : 360;

  let best: Area | null = null;
  let bestKm = Infinity;
  for (const area of areas) {
    const c = area.coordinates;
    if (Math.abs(c.lat - p.lat) > dLat || Math.abs(c.lng - p.lng) > dLng) continue;
    const km = haversineKm(p, c);
    if (km <= radiusKm && km < bestKm) {
      best = area;
      bestKm = km;
    }
  }
  if (best) return { region: best.region, serviceArea: best.name, areaId: best.id };

  const region = nearestRegion(p, regions);
  if (!region) return null;
  return { region: region.name, serviceArea: region.name, areaId: null };
}

/** Region whose centroid is nearest to p (null only for an empty list). */
export function nearestRegion(p: LatLng, regions: readonly Region[]): Region | null {
  let best: Region | null = null;
  let bestKm = Infinity;
  for (const r of regions) {
    const km = haversineKm(p, r.centroid);
    if (km < bestKm) {
      best = r;
      bestKm = km;
    }
  }
  return best;
}

/** Case-insensitive region/zone filter for locations.list. */
export function filterAreas(
  areas: readonly Area[],
  filters: { region?: string | null; zone?: string | null },
): Area[] {
  const region = filters.region?.trim().toLowerCase() || null;
  const zone = filters.zone?.trim().toLowerCase() || null;
  return areas.filter(
    (a) =>
      (region === null || a.region.toLowerCase() === region) &&
      (zone === null || a.zone.toLowerCase() === zone),
  );
}

/** Find an area by id (location_id labels only; it never drives pricing). */
export function findAreaById(areas: readonly Area[], id: string): Area | undefined {
  return areas.find((a) => a.id === id);
}
