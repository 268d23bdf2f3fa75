import type { Queryable } from '../../platform/db/index.ts';
import type { Vehicle } from '../couriers/index.ts';
import { batchRepository } from './batch-repository.ts';
import { planBatch, type BatchCandidate } from './domain/route.ts';
import type { JobRow } from './repository.ts';

/** The courier a batch would be offered to: where they are and what they ride. */
export interface BatchCourier {
  id: string;
  position: { lat: number; lng: number };
  vehicle: Vehicle;
}

export interface BatchRules {
  maxStops: number;
  windowMs: number;
  /** How long the courier may take to answer: the route is planned from the offer's end. */
  offerMs: number;
  /** Couriers who let a job's offer expire before this may be offered it again (REOFFER_AFTER_MS). */
  pausedSince: Date;
}

const candidate = (j: JobRow): BatchCandidate => ({
  id: j.order_id,
  dropoff: { lat: j.dropoff_lat!, lng: j.dropoff_lng! },
  readyAt: j.pickup_ready_at,
  dropoffDeadline: j.dropoff_deadline,
});

/**
 * The jobs to offer the courier with `job`, in route order (drop 1 first): `job` alone unless other
 * production jobs wait at the same round at the same pickup, in its zone, due within the batch
 * window of it, that the courier may be offered, and that fit the batch without any drop missing
 * its deadline (domain/route.ts's planBatch, at the courier's position and vehicle). Dispatch never
 * holds a job back to wait for a companion: a batch forms only from jobs already waiting together
 * (orders.create_bulk's, a busy hour's queue, jobs declined back to waiting).
 */
export async function batchAround(
  q: Queryable,
  job: JobRow,
  courier: BatchCourier,
  rules: BatchRules,
  now: Date,
): Promise<string[]> {
  const alone = [job.order_id];
  if (rules.maxStops < 2 || job.pickup_lat === null || job.pickup_lng === null) return alone;
  if (job.dropoff_lat === null || job.dropoff_lng === null) return alone;
  const found = await batchRepository.companions(q, job, {
    now,
    windowMs: rules.windowMs,
    limit: rules.maxStops * 4,
  });
  if (!found.length) return alone;
  const barred = new Set(
    await batchRepository.notAgainAmong(
      q,
      found.map((j) => j.order_id),
      courier.id,
      rules.pausedSince,
    ),
  );
  return planBatch({
    pickup: { lat: job.pickup_lat, lng: job.pickup_lng },
    courier: { position: courier.position, vehicle: courier.vehicle },
    setOff: new Date(now.getTime() + rules.offerMs),
    jobs: [job, ...found.filter((j) => !barred.has(j.order_id))].map(candidate),
    maxStops: rules.maxStops,
  }).stops;
}
