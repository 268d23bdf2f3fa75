import { describe, expect, it } from 'vitest';
import { isNear } from './near.ts';

const dropoff = { lat: 5.6037, lng: -0.187 };
const now = Date.parse('2026-11-29T10:00:00Z');
const at = (minutes: number) => new Date(now + minutes * 60_000).toISOString();

describe('the courier is near', () => {
  it('within 500 m of the drop-off, on the way to it', () => {
    const position = { lat: 5.6037 + 0.004, lng: -0.187 }; // about 445 m north
    expect(isNear({ next_stop: 'dropoff', position, eta: at(9) }, dropoff, now)).toBe(true);
    const far = { lat: 5.6037 + 0.006, lng: -0.187 }; // about 667 m
    expect(isNear({ next_stop: 'dropoff', position: far, eta: at(9) }, dropoff, now)).toBe(false);
  });

  it('or 4 minutes away or less', () => {
    const far = { lat: 5.65, lng: -0.187 };
    expect(isNear({ next_stop: 'dropoff', position: far, eta: at(4) }, dropoff, now)).toBe(true);
    expect(isNear({ next_stop: 'dropoff', position: far, eta: at(5) }, dropoff, now)).toBe(false);
    expect(isNear({ next_stop: 'dropoff', position: far, eta: null }, null, now)).toBe(false);
  });

  it('never before the pickup', () => {
    expect(isNear({ next_stop: 'pickup', position: dropoff, eta: at(0) }, dropoff, now)).toBe(
      false,
    );
  });
});
