/** Which courier dispatch offers a job to: pure, so the rule is tested without a database. */
import { haversineKm, type LatLng } from '../../../shared/ghana/index.ts';

export interface Candidate {
  id: string;
  position: LatLng;
  /** Jobs the courier holds now (active assignments). */
  load: number;
}

/** Each job a courier already holds counts as this many extra kilometres to the pickup. */
export const LOAD_PENALTY_KM = 3;

export interface Ranked {
  id: string;
  /** Distance to the pickup, or null when the order has no pickup coordinates. */
  km: number | null;
  score: number;
}

/**
 * Best first: distance to the pickup (haversine) plus LOAD_PENALTY_KM per job held, so a free
 * courier a little further away beats a busy one next door. Without pickup coordinates only the
 * load counts. Ties go to the smaller id, so the choice is stable.
 */
export function rankCandidates(pickup: LatLng | null, candidates: readonly Candidate[]): Ranked[] {
  return candidates
    .map((c) => {
      const km = pickup ? haversineKm(pickup, c.position) : null;
      return { id: c.id, km, score: (km ?? 0) + LOAD_PENALTY_KM * c.load };
    })
    .sort((a, b) => a.score - b.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
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
