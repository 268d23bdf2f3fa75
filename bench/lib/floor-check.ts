/**
 * The floor of the signed health measure: what the contract's work for a signed health call alone
 * leaves of the bare no-op (bench/baseline/floor.ts), both served by one short-lived process of
 * their own (floor-server.ts). Measured once per headline run, no-op → floor → no-op → floor →
 * no-op, so signed health's CPU per request can be read against what is possible on this machine.
 */
import { randomBytes } from 'node:crypto';
import { FLOOR_PATH } from '../baseline/floor.ts';
import { LoadGenerator, type Route, signedRoute } from './load.ts';
import { launch } from './server.ts';
import { round } from './stats.ts';

export interface FloorCheck {
  /** The bare no-op's rate (mean of its runs) and the floor's (mean of its runs). */
  noopRps: number;
  floorRps: number;
  ratio: number;
  /** The bare server's CPU per request, µs, on each route; cpuRatio = noop ÷ floor. */
  noopCpuUs: number | null;
  floorCpuUs: number | null;
  cpuRatio: number | null;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Pure: the check from the runs' rates and CPU per request (null where /proc was unreadable). */
interface Run {
  rps: number;
  cpuUs: number | undefined;
}

export function floorFigures(noop: Run[], floor: Run[]): FloorCheck {
  const noopRps = mean(noop.map((r) => r.rps));
  const floorRps = mean(floor.map((r) => r.rps));
  // CPU per request only when every run could read it (/proc), on both sides.
  const cpuKnown = [...noop, ...floor].every((r) => r.cpuUs !== undefined);
  const noopCpuUs = cpuKnown ? mean(noop.map((r) => r.cpuUs!)) : null;
  const floorCpuUs = cpuKnown ? mean(floor.map((r) => r.cpuUs!)) : null;
  return {
    noopRps: Math.round(noopRps),
    floorRps: Math.round(floorRps),
    ratio: round(floorRps / noopRps, 2),
    noopCpuUs: noopCpuUs === null ? null : round(noopCpuUs, 1),
    floorCpuUs: floorCpuUs === null ? null : round(floorCpuUs, 1),
    cpuRatio: noopCpuUs === null || floorCpuUs === null ? null : round(noopCpuUs / floorCpuUs, 2),
  };
}

export async function checkFloor(
  connections: number,
  seconds: number,
  warmupSeconds: number,
): Promise<FloorCheck> {
  const key = {
    apiKey: `pk_production_floor${randomBytes(12).toString('hex')}`,
    signingSecret: randomBytes(24).toString('base64url'),
  };
  const server = await launch(
    'bench/baseline/floor-server.ts',
    { FLOOR_API_KEY: key.apiKey, FLOOR_SIGNING_SECRET: key.signingSecret },
    [],
    '/noop',
  );
  const load = new LoadGenerator(server.port, connections, server.cpuMs);
  const noop: Route = { label: 'bare GET /noop', path: '/noop', signer: null };
  const floor = signedRoute('signed health floor', FLOOR_PATH, key, server.url);
  const runs = { noop: [] as Run[], floor: [] as Run[] };
  try {
    for (const route of [noop, floor]) await load.throughput([route], warmupSeconds, [20_000]);
    for (const [route, into] of [
      [noop, runs.noop],
      [floor, runs.floor],
      [noop, runs.noop],
      [floor, runs.floor],
      [noop, runs.noop],
    ] as const) {
      const [t] = await load.throughput([route], seconds, [20_000]);
      into.push({ rps: t!.rps, cpuUs: t!.serverCpuUsPerReq });
    }
    if (load.failures.count > 0)
      throw new Error(`the floor check met failures: ${load.failures.samples.join('; ')}`);
  } finally {
    load.close();
    await server.stop();
  }
  return floorFigures(runs.noop, runs.floor);
}

export function describeFloorCheck(c: FloorCheck): string {
  const cpu =
    c.noopCpuUs === null
      ? ''
      : `; server CPU ${c.noopCpuUs} → ${c.floorCpuUs} µs/req (CPU ratio ${c.cpuRatio})`;
  return (
    `signed health floor (the contract's signature, nonce and rate headers on bare Fastify, nothing else; bench/baseline/floor.ts): ` +
    `bare no-op ${c.noopRps} req/s, floor ${c.floorRps} req/s, ratio ${c.ratio}${cpu}: ` +
    `what the contract's work alone leaves of the no-op in CPU here (signed health does that and more); in throughput, runs apart move by ±0.1`
  );
}
