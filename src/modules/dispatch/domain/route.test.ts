import { describe, expect, it } from 'vitest';
import {
  arrivalTimes,
  nearestNeighbour,
  pathKm,
  planBatch,
  routeOrder,
  twoOpt,
  type BatchCandidate,
} from './route.ts';

const PICKUP = { lat: 5.549, lng: -0.209 };
/** A point `north` and `east` km from the pickup (about 111 km a degree this near the equator). */
const at = (north: number, east: number) => ({
  lat: PICKUP.lat + north / 111,
  lng: PICKUP.lng + east / 111,
});

/** A small deterministic generator (mulberry32), so the random instances are the same every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every permutation's shortest path (small n only). */
function optimumKm(drops: ReturnType<typeof at>[]): number {
  let best = Number.POSITIVE_INFINITY;
  const walk = (order: number[], left: number[]) => {
    if (!left.length) best = Math.min(best, pathKm(PICKUP, drops, order));
    for (const i of left)
      walk(
        [...order, i],
        left.filter((x) => x !== i),
      );
  };
  walk(
    [],
    drops.map((_, i) => i),
  );
  return best;
}

describe('route order (nearest neighbour + 2-opt)', () => {
  it('answers nothing for no drop and the only drop for one', () => {
    expect(routeOrder(PICKUP, [])).toEqual([]);
    expect(routeOrder(PICKUP, [at(3, 1)])).toEqual([0]);
  });

  it('keeps identical points (and drops at the pickup itself) in a stable order without looping', () => {
    const same = at(2, 2);
    expect(routeOrder(PICKUP, [same, same, same])).toEqual([0, 1, 2]);
    expect(routeOrder(PICKUP, [PICKUP, PICKUP])).toEqual([0, 1]);
    expect(routeOrder(PICKUP, [at(5, 0), same, same])).toEqual([1, 2, 0]);
  });

  it('visits drops on a line outward, whatever order they were given in', () => {
    expect(routeOrder(PICKUP, [at(6, 0), at(2, 0), at(4, 0)])).toEqual([1, 2, 0]);
  });

  it('2-opt undoes a crossing that nearest neighbour leaves', () => {
    // NN goes to the near point east, then crosses back west and east again.
    const drops = [at(0, 1), at(0, -1.5), at(0, 3)];
    const nn = nearestNeighbour(PICKUP, drops);
    const crossed = [1, 2, 0];
    expect(pathKm(PICKUP, drops, twoOpt(PICKUP, drops, crossed))).toBeLessThan(
      pathKm(PICKUP, drops, crossed),
    );
    expect(pathKm(PICKUP, drops, routeOrder(PICKUP, drops))).toBeLessThanOrEqual(
      pathKm(PICKUP, drops, nn) + 1e-9,
    );
  });

  it('on 8 and more drops, is never longer than nearest neighbour, often shorter, and close to the optimum', () => {
    let shorter = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const r = random(seed);
      const drops = Array.from({ length: 8 + (seed % 3) }, () => at(r() * 10 - 5, r() * 10 - 5));
      const nnKm = pathKm(PICKUP, drops, nearestNeighbour(PICKUP, drops));
      const order = routeOrder(PICKUP, drops);
      expect([...order].sort((a, b) => a - b)).toEqual(drops.map((_, i) => i));
      const km = pathKm(PICKUP, drops, order);
      expect(km).toBeLessThanOrEqual(nnKm + 1e-9);
      if (km < nnKm - 1e-6) shorter++;
      if (drops.length === 8) expect(km).toBeLessThanOrEqual(optimumKm(drops) * 1.25);
    }
    expect(shorter).toBeGreaterThan(5);
  });
});

const job = (id: string, north: number, deadlineMin?: number): BatchCandidate => ({
  id,
  dropoff: at(north, 0),
  readyAt: null,
  dropoffDeadline: deadlineMin === undefined ? null : new Date(NOW + deadlineMin * 60_000),
});
const NOW = Date.parse('2026-03-30T09:00:00Z');
const base = {
  pickup: PICKUP,
  courier: { position: PICKUP, vehicle: 'motorbike' as const },
  setOff: new Date(NOW),
};

describe('planBatch', () => {
  it('takes jobs up to the stop limit, in route order', () => {
    const plan = planBatch({
      ...base,
      jobs: [job('a', 6), job('b', 2), job('c', 4), job('d', 8)],
      maxStops: 3,
    });
    expect(plan.stops).toEqual(['b', 'c', 'a']);
    expect(plan.arrivals.map((d) => d.getTime())).toEqual(
      [...plan.arrivals.map((d) => d.getTime())].sort((x, y) => x - y),
    );
  });

  it('leaves out a job that would make a drop miss its deadline, and takes the next that fits', () => {
    // Alone, 'near' is reached in about 12 minutes (a stop at the pickup, 2.6 road km, a stop at the
    // door); the drop 1.5 km south would come first on the route and make it about 25.
    const plan = planBatch({
      ...base,
      jobs: [job('near', 2, 15), job('south', -1.5), job('close', 3)],
      maxStops: 4,
    });
    expect(plan.stops).toEqual(['near', 'close']);
  });

  it('never drops the first job, even alone past its deadline (it is offered as it would be alone)', () => {
    expect(
      planBatch({ ...base, jobs: [job('late', 20, 1), job('b', 1)], maxStops: 4 }).stops,
    ).toEqual(['late']);
    expect(planBatch({ ...base, jobs: [], maxStops: 4 }).stops).toEqual([]);
  });

  it('leaves the pickup only once every parcel is ready', () => {
    const ready = new Date(NOW + 60 * 60_000);
    const [t] = arrivalTimes(base, [{ ...job('x', 0), readyAt: ready }]);
    expect(t!.getTime()).toBeGreaterThan(ready.getTime());
  });
});
