import { describe, expect, it } from 'vitest';
import { batching, batchingBy, mapLimited, sharedRecent } from './concurrency.ts';

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

describe('sharedRecent', () => {
  it('shares one run among concurrent callers and trusts a success for its time to live', async () => {
    let now = 0;
    let runs = 0;
    const check = sharedRecent(
      async () => void runs++,
      1000,
      () => now,
    );
    await Promise.all(Array.from({ length: 50 }, check));
    expect(runs).toBe(1);
    now = 999;
    await check();
    expect(runs).toBe(1);
    now = 1001;
    await check();
    expect(runs).toBe(2);
  });

  it('does not remember a failure', async () => {
    let fail = true;
    let runs = 0;
    const check = sharedRecent(async () => {
      runs++;
      if (fail) throw new Error('down');
    }, 1000);
    await expect(Promise.all([check(), check()])).rejects.toThrow('down');
    expect(runs).toBe(1);
    fail = false;
    await check();
    await check();
    expect(runs).toBe(2);
  });
});

describe('batching', () => {
  it('writes the first item at once and what arrives meanwhile together, at most max per write', async () => {
    const writes: number[][] = [];
    let release: () => void = () => {};
    const write = batching<number>(async (items) => {
      writes.push(items);
      await new Promise<void>((r) => (release = r));
      return [];
    }, 3);
    const all = [1, 2, 3, 4, 5].map((n) => write(n));
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual([[1]]);
    release();
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual([[1], [2, 3, 4]]);
    release();
    await new Promise((r) => setImmediate(r));
    release();
    await Promise.all(all);
    expect(writes).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('fails exactly the items of a failed write and keeps going', async () => {
    let calls = 0;
    const write = batching<string>(async (items) => {
      calls++;
      if (items.includes('bad')) throw new Error('refused');
      return [];
    }, 10);
    const bad = write('bad');
    const results = await Promise.allSettled([bad, write('later')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    expect(calls).toBe(2);
  });

  it("gives each caller its own item's result", async () => {
    const write = batching<number, number>(async (items) => items.map((n) => n * 2), 10);
    expect(await Promise.all([1, 2, 3].map((n) => write(n)))).toEqual([2, 4, 6]);
  });
});

describe('batchingBy', () => {
  it('keeps one queue per group: a running write of one group does not hold another', async () => {
    const writes: string[][] = [];
    const releases: Array<() => void> = [];
    const write = batchingBy<string, string>(
      (s) => s[0]!,
      async (items) => {
        writes.push(items);
        await new Promise<void>((r) => releases.push(r));
        return items.map((s) => s.toUpperCase());
      },
      10,
    );
    const all = ['a1', 'a2', 'b1', 'a3', 'b2'].map((s) => write(s));
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual([['a1'], ['b1']]);
    releases.splice(0).forEach((r) => r());
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual([['a1'], ['b1'], ['a2', 'a3'], ['b2']]);
    releases.splice(0).forEach((r) => r());
    expect(await Promise.all(all)).toEqual(['A1', 'A2', 'B1', 'A3', 'B2']);
    // A drained group starts again with an immediate write.
    const late = write('a4');
    expect(writes.at(-1)).toEqual(['a4']);
    releases.splice(0).forEach((r) => r());
    expect(await late).toBe('A4');
  });
});
