import { describe, expect, it } from 'vitest';
import { travelMs } from './eta.ts';
import { arrivalAtDropoff, jobSchedule } from './window.ts';

const AT = new Date('2026-03-30T09:00:00Z');
const PICKUP = { lat: 5.549, lng: -0.209 };
const DROPOFF = { lat: 5.635, lng: -0.161 };
const LEAD = 30 * 60_000;

describe('jobSchedule', () => {
  it('is due at placement with no window, and never misses', () => {
    expect(
      jobSchedule(
        { at: AT, pickupReadyAt: null, dropoffDeadline: null, pickup: null, dropoff: null },
        LEAD,
      ),
    ).toEqual({ dueAt: AT, missAt: null });
  });

  it('is due the lead time before the parcel is ready, never before it was placed', () => {
    const later = new Date('2026-03-31T10:00:00Z');
    const base = { at: AT, dropoffDeadline: null, pickup: null, dropoff: null };
    expect(jobSchedule({ ...base, pickupReadyAt: later }, LEAD).dueAt).toEqual(
      new Date('2026-03-31T09:30:00Z'),
    );
    expect(
      jobSchedule({ ...base, pickupReadyAt: new Date('2026-03-30T09:10:00Z') }, LEAD).dueAt,
    ).toEqual(AT);
  });

  it('misses its deadline unless taken by the deadline less the travel time (the lead without points)', () => {
    const deadline = new Date('2026-03-30T13:00:00Z');
    const job = { at: AT, pickupReadyAt: null, dropoffDeadline: deadline };
    expect(jobSchedule({ ...job, pickup: PICKUP, dropoff: DROPOFF }, LEAD).missAt).toEqual(
      new Date(deadline.getTime() - travelMs(PICKUP, DROPOFF, 'motorbike')),
    );
    expect(jobSchedule({ ...job, pickup: null, dropoff: DROPOFF }, LEAD).missAt).toEqual(
      new Date(deadline.getTime() - LEAD),
    );
  });
});

describe('arrivalAtDropoff', () => {
  const eta = new Date('2026-03-30T10:00:00Z');
  it('is the ETA once the next stop is the drop-off, and adds the trip after a pickup', () => {
    const leg = { pickup: PICKUP, dropoff: DROPOFF, vehicle: 'car' as const };
    expect(arrivalAtDropoff(eta, false, leg)).toEqual(eta);
    expect(arrivalAtDropoff(eta, true, leg)).toEqual(
      new Date(eta.getTime() + travelMs(PICKUP, DROPOFF, 'car')),
    );
  });

  it('is unknown without an ETA or, before pickup, without the drop-off point', () => {
    expect(arrivalAtDropoff(null, false, { pickup: null, dropoff: null, vehicle: 'car' })).toBe(
      null,
    );
    expect(arrivalAtDropoff(eta, true, { pickup: PICKUP, dropoff: null, vehicle: 'car' })).toBe(
      null,
    );
  });
});
