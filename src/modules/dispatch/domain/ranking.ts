/** Which courier dispatch offers a job to: pure, so the rule is tested without a database. */
import { haversineKm, type LatLng } from '../../../shared/ghana/index.ts';

export interface Candidate {
  id: string;
  position: LatLng;
}

export interface Ranked {
  id: string;
  /** Distance to the pickup, or null when the order has no pickup coordinates. */
  km: number | null;
}

/**
 * Best first: the nearest to the pickup (haversine). Candidates are free couriers (the courier app
 * shows one job at a time, so an offer to a courier holding one would never be seen). Without
 * pickup coordinates, and between equals, the smaller id goes first, so the choice is stable.
 */
export function rankCandidates(pickup: LatLng | null, candidates: readonly Candidate[]): Ranked[] {
  return candidates
    .map((c) => ({ id: c.id, km: pickup ? haversineKm(pickup, c.position) : null }))
    .sort((a, b) => (a.km ?? 0) - (b.km ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * A job's zone: its pickup region as a zone id ('Greater Accra' → 'greater-accra'), the ids couriers
 * list in their zones. Null when the region is unknown (no pickup coordinates): any courier may go.
 */
export function zoneOf(pickupRegion: string | null): string | null {
  if (!pickupRegion) return null;
  const id = pickupRegion
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return id || null;
}
