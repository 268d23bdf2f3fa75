import { describe, expect, it } from 'vitest';
import { etaAt, nextStop, ROAD_FACTOR, SPEED_KMH, STOP_MS } from './eta.ts';

const now = new Date('2026-01-05T10:00:00Z');
const osu = { lat: 5.5565, lng: -0.18 };
// About 10 km north of Osu (0.0899° of latitude ≈ 10 km).
const north = { lat: 5.5565 + 0.08993, lng: -0.18 };

describe('etaAt', () => {
  it('is the stop time alone when the courier is at the stop', () => {
    expect(etaAt(osu, osu, 'motorbike', now).getTime() - now.getTime()).toBe(STOP_MS);
  });

  it('drives the road distance at the vehicle speed, plus the stop time', () => {
    const minutes = (v: 'motorbike' | 'car' | 'van') =>
      (etaAt(north, osu, v, now).getTime() - now.getTime() - STOP_MS) / 60_000;
    expect(minutes('motorbike')).toBeCloseTo(((10 * ROAD_FACTOR) / SPEED_KMH.motorbike) * 60, 0);
    expect(minutes('car')).toBeCloseTo(((10 * ROAD_FACTOR) / 20) * 60, 0);
    expect(minutes('motorbike')).toBeLessThan(minutes('car'));
    expect(minutes('car')).toBeLessThan(minutes('van'));
  });

  it('is symmetric in distance', () => {
    expect(etaAt(osu, north, 'van', now).getTime()).toBe(etaAt(north, osu, 'van', now).getTime());
  });

  it("through a batch's earlier drops: each leg of the route with its stop, not the straight line", () => {
    // Osu → 10 km north → back to Osu: two legs and two stops, though the drop is where the courier is.
    const viaNorth = etaAt(osu, osu, 'motorbike', now, [north]).getTime() - now.getTime();
    const leg = etaAt(osu, north, 'motorbike', now).getTime() - now.getTime();
    expect(viaNorth).toBe(2 * leg);
    expect(etaAt(osu, north, 'car', now, []).getTime()).toBe(
      etaAt(osu, north, 'car', now).getTime(),
    );
  });
});

describe('nextStop', () => {
  it('is the pickup until the parcel is picked up, then the drop-off', () => {
    expect(nextStop('accepted')).toBe('pickup');
    expect(nextStop('at_pickup')).toBe('pickup');
    expect(nextStop('picked_up')).toBe('dropoff');
    expect(nextStop('at_dropoff')).toBe('dropoff');
  });
});
