/**
 * Proof that the load generator is not the bottleneck (issue 30): the bare no-op, the cheapest
 * request there is, from one generator process and then from two sharing the same connections.
 * If a second process raised the rate by more than 10%, one process was the ceiling and every ratio
 * measured with it would be squeezed toward 1.
 */
import type { ChildServer } from './server.ts';
import { GeneratorProcesses } from './generators.ts';
import { LoadGenerator, type Route } from './load.ts';

/** The most a second generator process may add to the bare no-op's rate. */
export const GENERATOR_GAIN_LIMIT = 0.1;

export interface GeneratorCheck {
  oneProcessRps: number;
  twoProcessesRps: number;
  /** twoProcessesRps ÷ oneProcessRps − 1. */
  gain: number;
  pass: boolean;
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

/** One, two, one, two processes (drift spreads over both), each for `seconds`. */
export async function checkGenerator(
  server: ChildServer,
  connections: number,
  seconds: number,
): Promise<GeneratorCheck> {
  const rates: number[] = [];
  for (const processes of [1, 2, 1, 2])
    rates.push(await rate(server, processes, connections, seconds));
  const oneProcessRps = (rates[0]! + rates[2]!) / 2;
  const twoProcessesRps = (rates[1]! + rates[3]!) / 2;
  const gain = twoProcessesRps / oneProcessRps - 1;
  return {
    oneProcessRps: Math.round(oneProcessRps),
    twoProcessesRps: Math.round(twoProcessesRps),
    gain: Math.round(gain * 1000) / 1000,
    pass: gain <= GENERATOR_GAIN_LIMIT,
  };
}

export function describeGeneratorCheck(c: GeneratorCheck): string {
  return `generator check (bare no-op): 1 process ${c.oneProcessRps} req/s, 2 processes ${c.twoProcessesRps} req/s, ${c.gain >= 0 ? '+' : ''}${(c.gain * 100).toFixed(1)}%: ${c.pass ? 'PASS, the generator is not the ceiling' : `FAIL, over +${GENERATOR_GAIN_LIMIT * 100}%: set BENCH_GENERATORS=2 or more`}`;
}
