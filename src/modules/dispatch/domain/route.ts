/**
 * Multi-drop planning, pure: the order a courier visits a batch's drop-offs after its one pickup,
 * and whether a batch keeps every drop inside its deadline. Distances are road estimates: the
 * straight line stretched by the ETA's ROAD_FACTOR, as everywhere else in dispatch.
 */
import { haversineKm, type LatLng } from '../../../shared/ghana/index.ts';
import type { Vehicle } from '../../couriers/index.ts';
import type { Stage } from './actions.ts';
import { ROAD_FACTOR, travelMs } from './eta.ts';

/** Road distance estimate between two points (km). */
export function roadKm(a: LatLng, b: LatLng): number {
  return haversineKm(a, b) * ROAD_FACTOR;
}

/** Length (road km) of the path from `start` through `drops` taken in `order` (an open path: no way back). */
export function pathKm(start: LatLng, drops: readonly LatLng[], order: readonly number[]): number {
  let km = 0;
  let at = start;
  for (const i of order) {
    km += roadKm(at, drops[i]!);
    at = drops[i]!;
  }
  return km;
}

/** Nearest neighbour from `start`: always the closest drop not yet visited (the lower index on a tie). */
export function nearestNeighbour(start: LatLng, drops: readonly LatLng[]): number[] {
  const left = drops.map((_, i) => i);
  const order: number[] = [];
  let at = start;
  while (left.length) {
    let best = 0;
    for (let k = 1; k < left.length; k++)
      if (roadKm(at, drops[left[k]!]!) < roadKm(at, drops[left[best]!]!)) best = k;
    const [next] = left.splice(best, 1);
    order.push(next!);
    at = drops[next!]!;
  }
  return order;
}

/** Improvements smaller than this (km) are rounding, not a shorter route: 2-opt stops on them. */
const EPSILON_KM = 1e-9;

/**
 * 2-opt on an open path with a fixed start (the pickup) and a free end: reverses the stretch of
 * drops between two positions while that shortens the path, until no reversal does. The last drop
 * has no successor, so a reversal reaching the end only changes the edge into the stretch.
 */
export function twoOpt(
  start: LatLng,
  drops: readonly LatLng[],
  order: readonly number[],
): number[] {
  const path = [...order];
  const pos = (k: number) => (k < 0 ? start : drops[path[k]!]!);
  let improved = true;
  while (improved) {
    improved = false;
    for (let i = 0; i < path.length - 1; i++) {
      for (let k = i + 1; k < path.length; k++) {
        const before =
          roadKm(pos(i - 1), pos(i)) + (k + 1 < path.length ? roadKm(pos(k), pos(k + 1)) : 0);
        const after =
          roadKm(pos(i - 1), pos(k)) + (k + 1 < path.length ? roadKm(pos(i), pos(k + 1)) : 0);
        if (after < before - EPSILON_KM) {
          path.splice(i, k - i + 1, ...path.slice(i, k + 1).reverse());
          improved = true;
        }
      }
    }
  }
  return path;
}

/** The drops' visiting order from the pickup: nearest neighbour, then improved by 2-opt. */
export function routeOrder(start: LatLng, drops: readonly LatLng[]): number[] {
  return twoOpt(start, drops, nearestNeighbour(start, drops));
}

/** One job a batch may carry, as the planner needs it. */
export interface BatchCandidate {
  id: string;
  dropoff: LatLng;
  /** When the parcel is ready at the pickup (null: now). */
  readyAt: Date | null;
  dropoffDeadline: Date | null;
}

export interface BatchPlan {
  /** The jobs taken, in route order (drop 1 first). */
  stops: string[];
  /** When the courier is expected at each of those drops (same order). */
  arrivals: Date[];
}

export interface BatchInput {
  pickup: LatLng;
  /** The courier's position and vehicle (the one the batch would be offered to). */
  courier: { position: LatLng; vehicle: Vehicle };
  /** From when the courier sets off: now plus the time they have to answer the offer. */
  setOff: Date;
  /** The job the batch is built around first, then the others in the order they should be tried. */
  jobs: readonly BatchCandidate[];
  maxStops: number;
}

/** When the courier reaches each drop of `jobs` taken in `order`; they leave the pickup once every parcel is ready. */
export function arrivalTimes(
  input: Omit<BatchInput, 'jobs' | 'maxStops'>,
  jobs: readonly BatchCandidate[],
): Date[] {
  const { pickup, courier } = input;
  const ready = Math.max(0, ...jobs.map((j) => j.readyAt?.getTime() ?? 0));
  const atPickup = input.setOff.getTime() + travelMs(courier.position, pickup, courier.vehicle);
  let t = Math.max(atPickup, ready);
  let at = pickup;
  return jobs.map((j) => {
    t += travelMs(at, j.dropoff, courier.vehicle);
    at = j.dropoff;
    return new Date(t);
  });
}

/**
 * The batch to offer: the first job, then each other one in turn while there is room (maxStops
 * drops) and the route with it still reaches every drop with a deadline by that deadline. A job
 * that would make any drop late is left out (it goes on its own); the first job is always taken,
 * as it would be alone, so a batch never makes a deadline worse than a single offer would.
 */
export function planBatch(input: BatchInput): BatchPlan {
  const [first, ...others] = input.jobs;
  if (!first) return { stops: [], arrivals: [] };
  let taken: BatchCandidate[] = [first];
  let plan = routed(input, taken);
  for (const job of others) {
    if (taken.length >= input.maxStops) break;
    const tryJobs = [...taken, job];
    const tryPlan = routed(input, tryJobs);
    if (!meetsDeadlines(tryPlan)) continue;
    taken = tryJobs;
    plan = tryPlan;
  }
  return { stops: plan.jobs.map((j) => j.id), arrivals: plan.arrivals };
}

function routed(input: BatchInput, jobs: readonly BatchCandidate[]) {
  const order = routeOrder(
    input.pickup,
    jobs.map((j) => j.dropoff),
  );
  const inOrder = order.map((i) => jobs[i]!);
  return { jobs: inOrder, arrivals: arrivalTimes(input, inOrder) };
}

function meetsDeadlines(plan: { jobs: BatchCandidate[]; arrivals: Date[] }): boolean {
  return plan.jobs.every(
    (j, i) => !j.dropoffDeadline || plan.arrivals[i]!.getTime() <= j.dropoffDeadline.getTime(),
  );
}

/** A held job's place in its batch (none for a single job). */
interface HeldStop {
  batch_id: string | null;
  stop: number | null;
  stage: Stage;
}

/**
 * What a courier holding `held` (oldest first) works on: the first job's batch by stop (or that
 * job alone), and in it the drop they head for now, the first not going back to the pickup (a
 * failed drop's return waits for the others).
 */
export function currentStop<T extends HeldStop>(
  held: readonly T[],
): { batch: T[]; now: T } | undefined {
  const first = held[0];
  if (!first) return undefined;
  const batch = first.batch_id
    ? held
        .filter((a) => a.batch_id === first.batch_id)
        .sort((a, b) => (a.stop ?? 0) - (b.stop ?? 0))
    : [first];
  return { batch, now: batch.find((a) => a.stage !== 'returning') ?? batch[0]! };
}
