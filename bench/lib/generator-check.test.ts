import { describe, expect, it } from 'vitest';
import { describeGeneratorCheck, findGenerators, MAX_GENERATORS } from './generator-check.ts';

/** A machine whose bare no-op runs at `rates[n]` from n generator processes. */
const machine = (rates: Record<number, number>) => {
  const asked: number[] = [];
  return {
    asked,
    rateOf: async (n: number) => {
      asked.push(n);
      return rates[n]!;
    },
  };
};

describe('the generator check', () => {
  it('keeps one process when a second adds no more than 10%', async () => {
    const m = machine({ 1: 20_000, 2: 21_000 });
    const c = await findGenerators(m.rateOf);
    expect(c).toMatchObject({ processes: 1, rps: 20_000, moreRps: 21_000, gain: 0.05, pass: true });
    expect(m.asked).toEqual([1, 2, 1, 2]);
    expect(describeGeneratorCheck(c)).toBe(
      'generator check (bare no-op): 1 process 20000 req/s, 2 processes 21000 req/s, +5.0%: PASS, 1 generator process is not the ceiling',
    );
  });

  it('adds a process while one more raises the rate by over 10%, and measures with the first that passes', async () => {
    const m = machine({ 1: 20_000, 2: 24_000, 3: 24_500 });
    const c = await findGenerators(m.rateOf);
    expect(c).toMatchObject({ processes: 2, pass: true, tried: [{ processes: 1, gain: 0.2 }] });
    expect(m.asked).toEqual([1, 2, 1, 2, 2, 3, 2, 3]);
    expect(describeGeneratorCheck(c)).toMatch(
      /^generator check \(bare no-op\): 1 → 2: \+20\.0%; 2 processes 24000 req\/s, 3 processes 24500 req\/s, \+2\.1%: PASS, 2 generator processes are not the ceiling$/,
    );
  });

  it('starts at BENCH_GENERATORS, and gives up at the most it tries, saying so', async () => {
    const m = machine({ 2: 10_000, 3: 12_000, 4: 14_400 });
    const c = await findGenerators(m.rateOf, 2);
    expect(c).toMatchObject({ processes: MAX_GENERATORS, pass: false });
    expect(Math.max(...m.asked)).toBe(MAX_GENERATORS);
    expect(describeGeneratorCheck(c)).toMatch(/FAIL, .* the load comes from 4$/);
  });
});
