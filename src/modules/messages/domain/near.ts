import { haversineKm, type LatLng } from '../../../shared/ghana/index.ts';

/**
 * When the recipient is told the courier is near, once per order: the parcel is picked up (the
 * courier's next stop is the drop-off) and the courier's newest position is within NEAR_METRES of
 * it in a straight line, or the ETA to it is at most NEAR_MINUTES away. Either alone: a courier
 * stuck in traffic 400 m off is near enough to get ready, and so is a motorbike 4 minutes out.
 */
export const NEAR_METRES = 500;
export const NEAR_MINUTES = 4;

export interface Progress {
  next_stop: 'pickup' | 'dropoff';
  position: LatLng;
  eta: string | null;
}

export function isNear(progress: Progress, dropoff: LatLng | null, now: number): boolean {
  if (progress.next_stop !== 'dropoff') return false;
  if (dropoff && haversineKm(progress.position, dropoff) * 1000 <= NEAR_METRES) return true;
  return progress.eta !== null && Date.parse(progress.eta) - now <= NEAR_MINUTES * 60_000;
}
