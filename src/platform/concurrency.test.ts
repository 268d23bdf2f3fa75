import { describe, expect, it } from 'vitest';
import { mapLimited } from './concurrency.ts';

describe('mapLimited', () => {
  it('keeps the input order and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapLimited([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, n));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(peak).toBe(3);
  });

  it('answers an empty list at once', async () => {
    expect(await mapLimited([], 5, async () => 1)).toEqual([]);
  });
});
