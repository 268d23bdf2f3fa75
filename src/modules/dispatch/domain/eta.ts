import { haversineKm, type LatLng } from '../../../shared/ghana/index.ts';
import type { Vehicle } from '../../couriers/index.ts';
import type { Stage } from './actions.ts';

/**
 * Assumed average speeds in Accra traffic (km/h), door to door: a motorbike weaves through, a car
 * and a van queue. Deliberately modest; the ETA is a guide for the recipient, not a promise.
 */
export const SPEED_KMH: Record<Vehicle, number> = { motorbike: 25, car: 20, van: 18 };
/** Roads are not straight lines: the straight-line distance is stretched by this factor. */
export const ROAD_FACTOR = 1.3;
/** Time added at the stop itself (parking, finding the door, handing over). */
export const STOP_MS = 3 * 60_000;

export type NextStop = 'pickup' | 'dropoff';

/** The courier's next stop at a stage: the pickup until the parcel is picked up, then the drop-off. */
export function nextStop(stage: Stage): NextStop {
  return stage === 'accepted' || stage === 'at_pickup' ? 'pickup' : 'dropoff';
}

/**
 * When the courier is expected at `to`: straight-line distance × ROAD_FACTOR at the vehicle's speed,
 * plus STOP_MS, from `now`. A courier already at the stop (stage at_pickup / at_dropoff) is expected
 * within the stop time. With `via` (a batch's drops before this one, in route order) the courier
 * goes through each of them first, stopping at each: the route, not the straight line.
 */
export function etaAt(
  from: LatLng,
  to: LatLng,
  vehicle: Vehicle,
  now: Date,
  via: readonly LatLng[] = [],
): Date {
  let t = now.getTime();
  let at = from;
  for (const stop of [...via, to]) {
    t += travelMs(at, stop, vehicle);
    at = stop;
  }
  return new Date(t);
}

/** The road time from `from` to `to` at the vehicle's speed, with the stop at `to` (etaAt's duration). */
export function travelMs(from: LatLng, to: LatLng, vehicle: Vehicle): number {
  const hours = (haversineKm(from, to) * ROAD_FACTOR) / SPEED_KMH[vehicle];
  return Math.round(hours * 3_600_000) + STOP_MS;
}
