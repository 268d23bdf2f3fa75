import { describe, expect, it } from 'vitest';
import { checkFallback, confirmationToken, CONFIRM_TOKEN, tokenHash } from './confirmation.ts';

const DROPOFF = { lat: 5.556, lng: -0.182 };
const NOW = Date.parse('2026-03-02T10:00:00Z');
const LIMITS = { maxDistanceM: 150, maxAgeSeconds: 300 };
const at = (secondsAgo: number) => new Date(NOW - secondsAgo * 1000);

describe('a photo or signature standing in for the code', () => {
  it('is allowed within the distance of the drop-off, from a fresh position', () => {
    // About 100 m north.
    expect(
      checkFallback({ lat: 5.5569, lng: -0.182, at: at(60) }, DROPOFF, NOW, LIMITS),
    ).toMatchObject({ ok: true, distanceM: expect.any(Number) });
    const r = checkFallback({ lat: 5.5569, lng: -0.182, at: at(60) }, DROPOFF, NOW, LIMITS);
    expect(r.ok && r.distanceM).toBeGreaterThan(90);
    expect(r.ok && r.distanceM).toBeLessThan(110);
  });

  it('is refused too far away, with the distance; without a position; from a stale one', () => {
    expect(checkFallback({ lat: 5.566, lng: -0.182, at: at(10) }, DROPOFF, NOW, LIMITS)).toEqual({
      ok: false,
      problem: 'too_far',
      distanceM: expect.any(Number),
    });
    expect(checkFallback({ lat: null, lng: null, at: null }, DROPOFF, NOW, LIMITS)).toEqual({
      ok: false,
      problem: 'no_position',
    });
    expect(checkFallback({ ...DROPOFF, at: at(301) }, DROPOFF, NOW, LIMITS)).toEqual({
      ok: false,
      problem: 'stale_position',
    });
    expect(checkFallback({ ...DROPOFF, at: at(300) }, DROPOFF, NOW, LIMITS).ok).toBe(true);
  });

  it('cannot be measured for an order without a drop-off point: allowed, distance unknown', () => {
    expect(checkFallback({ lat: null, lng: null, at: null }, null, NOW, LIMITS)).toEqual({
      ok: true,
      distanceM: null,
      positionAt: null,
    });
  });

  it('derives one link token per order and key, kept only as a hash', () => {
    const key = Buffer.alloc(32, 1);
    const t = confirmationToken(key, 'dlv_1');
    expect(t).toMatch(CONFIRM_TOKEN);
    expect(confirmationToken(key, 'dlv_1')).toBe(t);
    expect(confirmationToken(key, 'dlv_2')).not.toBe(t);
    expect(confirmationToken(Buffer.alloc(32, 2), 'dlv_1')).not.toBe(t);
    expect(tokenHash(t)).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash(t)).not.toContain(t);
  });
});
