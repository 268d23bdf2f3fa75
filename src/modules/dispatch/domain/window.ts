import type { LatLng } from '../../../shared/ghana/index.ts';
import type { Vehicle } from '../../couriers/index.ts';
import { travelMs } from './eta.ts';

/** The vehicle a window is planned for: most jobs go by motorbike (the fastest, so the latest cut-off). */
const PLANNING_VEHICLE = 'motorbike';

export interface WindowedJob {
  /** When the order was placed. */
  at: Date;
  pickupReadyAt: Date | null;
  dropoffDeadline: Date | null;
  pickup: LatLng | null;
  dropoff: LatLng | null;
}

export interface JobSchedule {
  /** From when the job may be offered. */
  dueAt: Date;
  /** The last moment a courier may take the job and still reach the drop-off by the deadline; null without one. */
  missAt: Date | null;
}

/**
 * When a job is offered and when it will miss its window. Offered from the parcel's ready time less
 * the lead time (the time a courier needs to reach the pickup), never before its placement. It will
 * miss its deadline if nobody holds it by the deadline less the pickup-to-drop-off travel time; when
 * either point is unknown the lead time stands in for that travel.
 */
export function jobSchedule(job: WindowedJob, leadMs: number): JobSchedule {
  const placed = job.at.getTime();
  const dueAt = job.pickupReadyAt
    ? new Date(Math.max(placed, job.pickupReadyAt.getTime() - leadMs))
    : job.at;
  if (!job.dropoffDeadline) return { dueAt, missAt: null };
  const travel =
    job.pickup && job.dropoff ? travelMs(job.pickup, job.dropoff, PLANNING_VEHICLE) : leadMs;
  return { dueAt, missAt: new Date(job.dropoffDeadline.getTime() - travel) };
}

/**
 * When the courier is expected at the drop-off: the next stop's ETA, and when that stop is the
 * pickup, the pickup-to-drop-off travel after it at the courier's vehicle's speed. Null when a point
 * it needs is unknown.
 */
export function arrivalAtDropoff(
  nextStopEta: Date | null,
  stillToPickup: boolean,
  leg: { pickup: LatLng | null; dropoff: LatLng | null; vehicle: Vehicle },
): Date | null {
  if (!nextStopEta) return null;
  if (!stillToPickup) return nextStopEta;
  if (!leg.pickup || !leg.dropoff) return null;
  return new Date(nextStopEta.getTime() + travelMs(leg.pickup, leg.dropoff, leg.vehicle));
}
