import { describe, expect, it } from 'vitest';
import { atClockTime, scopedClock, scopedClockId, scopedTime } from './clock-scope.ts';

describe('scopedClock', () => {
  const clock = scopedClock(() => 1_000);

  it('answers its base outside any scope', () => {
    expect(clock()).toBe(1_000);
    expect(scopedTime()).toBeUndefined();
  });

  it('answers the scoped time through awaits, and its base again after', async () => {
    const seen = await atClockTime(5_000, async () => {
      await Promise.resolve();
      await new Promise((r) => setTimeout(r, 1));
      return clock();
    });
    expect(seen).toBe(5_000);
    expect(clock()).toBe(1_000);
  });

  it('names the test clock of the work in progress, when given', async () => {
    expect(await atClockTime(7_000, async () => scopedClockId(), 'clk_1')).toBe('clk_1');
    expect(await atClockTime(7_000, async () => scopedClockId())).toBeUndefined();
    expect(scopedClockId()).toBeUndefined();
  });

  it('keeps concurrent scopes apart', async () => {
    const [a, b] = await Promise.all([
      atClockTime(2_000, async () => {
        await new Promise((r) => setTimeout(r, 2));
        return clock();
      }),
      atClockTime(3_000, async () => clock()),
    ]);
    expect([a, b]).toEqual([2_000, 3_000]);
  });
});
