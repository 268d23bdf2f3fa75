/**
 * Proof that the load generator is not the bottleneck (issue 30): the bare no-op, the cheapest
 * request there is, from n generator processes and then from n + 1 sharing the same connections.
 * If one more process raised the rate by more than 10%, n processes were the ceiling and every
 * ratio measured with them would be squeezed toward 1: the check tries n + 1 against n + 2, and so
 * on, and the run's load comes from the first count that passes.
 */
import type { ChildServer } from './server.ts';
import { GeneratorProcesses } from './generators.ts';
import { LoadGenerator, type Route } from './load.ts';

/** The most one more generator process may add to the bare no-op's rate. */
export const GENERATOR_GAIN_LIMIT = 0.1;
/** The most processes the check tries (the servers share the same cores). */
export const MAX_GENERATORS = 4;

export interface GeneratorCheck {
  /** The processes the run's load comes from: the fewest that one more did not outrun. */
  processes: number;
  /** The bare no-op's rate from `processes`, and from one more. */
  rps: number;
  moreRps: number;
  /** moreRps ÷ rps − 1. */
  gain: number;
  pass: boolean;
  /** Each count tried before it, with its gain (a failed step). */
  tried: Array<{ processes: number; gain: number }>;
}

const NOOP: Route = { label: 'bare GET /noop', path: '/noop', signer: null };

async function rate(server: ChildServer, processes: number, connections: number, seconds: number) {
  const generators = new GeneratorProcesses(processes);
  const load = new LoadGenerator(server.port, connections, server.cpuMs, Infinity, generators);
  try {
    await load.throughput([NOOP], 1, [20_000]);
    const [t] = await load.throughput([NOOP], seconds, [20_000]);
    return t!.rps;
  } finally {
    load.close();
    generators.close();
  }
}

/** The bare no-op's rate from `processes` generator processes over one timed run. */
export type RateOf = (processes: number) => Promise<number>;

/** `n`, `n + 1`, `n`, `n + 1` processes (drift spreads over both). */
async function step(rateOf: RateOf, n: number) {
  const rates: number[] = [];
  for (const processes of [n, n + 1, n, n + 1]) rates.push(await rateOf(processes));
  const rps = (rates[0]! + rates[2]!) / 2;
  const moreRps = (rates[1]! + rates[3]!) / 2;
  return { rps, moreRps, gain: Math.round((moreRps / rps - 1) * 1000) / 1000 };
}

/**
 * Finds the processes the load must come from: starting at `from` (BENCH_GENERATORS), one more at a
 * time while one more raises the bare no-op by over GENERATOR_GAIN_LIMIT, up to MAX_GENERATORS.
 */
export async function findGenerators(rateOf: RateOf, from = 1): Promise<GeneratorCheck> {
  const tried: GeneratorCheck['tried'] = [];
  for (let n = Math.max(1, from); ; n++) {
    const s = await step(rateOf, n);
    const pass = s.gain <= GENERATOR_GAIN_LIMIT;
    if (pass || n + 1 >= MAX_GENERATORS)
      return {
        processes: pass ? n : n + 1,
        rps: Math.round(s.rps),
        moreRps: Math.round(s.moreRps),
        gain: s.gain,
        pass,
        tried,
      };
    tried.push({ processes: n, gain: s.gain });
  }
}

/** findGenerators on the bare server's no-op, each rate over `seconds` after a second's warm-up. */
export function checkGenerator(
  server: ChildServer,
  connections: number,
  seconds: number,
  from = 1,
): Promise<GeneratorCheck> {
  return findGenerators((n) => rate(server, n, connections, seconds), from);
}

const percent = (gain: number) => `${gain >= 0 ? '+' : ''}${(gain * 100).toFixed(1)}%`;

export function describeGeneratorCheck(c: GeneratorCheck): string {
  const before = c.tried.map((t) => `${t.processes} → ${t.processes + 1}: ${percent(t.gain)}; `);
  const last = c.pass ? c.processes : c.processes - 1;
  return (
    `generator check (bare no-op): ${before.join('')}${last} process${last > 1 ? 'es' : ''} ${c.rps} req/s, ` +
    `${last + 1} processes ${c.moreRps} req/s, ${percent(c.gain)}: ` +
    (c.pass
      ? `PASS, ${c.processes} generator process${c.processes > 1 ? 'es are' : ' is'} not the ceiling`
      : `FAIL, one more process still adds over +${GENERATOR_GAIN_LIMIT * 100}% at ${MAX_GENERATORS}; the load comes from ${c.processes}`)
  );
}
