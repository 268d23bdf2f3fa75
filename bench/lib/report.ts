/** Turns per-round measurements into medians, ratios and verdicts; prints them and shapes the JSON. */
import type { LatencyResult, ThroughputResult } from './load.ts';
import { median, ms, round, table } from './stats.ts';

export interface Targets {
  addedP50Ms: number;
  throughputCostPct: number;
}

export interface RouteRounds {
  label: string;
  latency: LatencyResult[];
  throughput: ThroughputResult[];
}

export interface ScenarioRun {
  name: string;
  title: string;
  notes: string[];
  targets: Targets;
  baseline: RouteRounds;
  signed: RouteRounds;
}

function routeSummary(r: RouteRounds) {
  const cpu = r.throughput
    .map((t) => t.serverCpuUsPerReq)
    .filter((v): v is number => v !== undefined);
  return {
    route: r.label,
    p50Ms: round(median(r.latency.map((l) => l.p50)), 4),
    p99Ms: round(median(r.latency.map((l) => l.p99)), 4),
    meanMs: round(median(r.latency.map((l) => l.mean)), 4),
    rps: round(median(r.throughput.map((t) => t.rps)), 1),
    loadedP50Ms: round(median(r.throughput.map((t) => t.p50)), 4),
    loadedP99Ms: round(median(r.throughput.map((t) => t.p99)), 4),
    serverCpuUsPerReq: cpu.length > 0 ? round(median(cpu), 1) : null,
    clientCpuUsPerReq: round(median(r.throughput.map((t) => t.clientCpuUsPerReq)), 1),
    rounds: {
      p50Ms: r.latency.map((l) => round(l.p50, 4)),
      p99Ms: r.latency.map((l) => round(l.p99, 4)),
      rps: r.throughput.map((t) => round(t.rps, 1)),
      requests: r.throughput.map((t) => t.requests),
      signedInline: r.throughput.map((t) => t.signedInline),
    },
  };
}

/** Paired per-round comparisons (each round measures both routes back to back), then their median. */
export function summarise(run: ScenarioRun) {
  const base = routeSummary(run.baseline);
  const signed = routeSummary(run.signed);
  const rounds = run.baseline.latency.map((_, i) => {
    const bl = run.baseline.latency[i]!;
    const sl = run.signed.latency[i]!;
    const bt = run.baseline.throughput[i]!;
    const st = run.signed.throughput[i]!;
    return {
      addedP50Ms: sl.p50 - bl.p50,
      addedP99Ms: sl.p99 - bl.p99,
      p50Ratio: sl.p50 / bl.p50,
      rpsRatio: st.rps / bt.rps,
      costPct: (1 - st.rps / bt.rps) * 100,
    };
  });
  const inline = run.signed.throughput.reduce((sum, t) => sum + t.signedInline, 0);
  const addedP50Ms = median(rounds.map((r) => r.addedP50Ms));
  const throughputCostPct = median(rounds.map((r) => r.costPct));
  return {
    scenario: run.name,
    title: run.title,
    notes: [
      ...run.notes,
      ...(inline > 0
        ? [
            `${inline} signed request(s) ran out of pre-signed headers and were signed inside the timed window.`,
          ]
        : []),
    ],
    routes: { baseline: base, signed },
    addedP50Ms: round(addedP50Ms, 4),
    addedP99Ms: round(median(rounds.map((r) => r.addedP99Ms)), 4),
    p50Ratio: round(median(rounds.map((r) => r.p50Ratio)), 3),
    throughputRatio: round(median(rounds.map((r) => r.rpsRatio)), 3),
    throughputCostPct: round(throughputCostPct, 2),
    addedServerCpuUsPerReq:
      base.serverCpuUsPerReq !== null && signed.serverCpuUsPerReq !== null
        ? round(signed.serverCpuUsPerReq - base.serverCpuUsPerReq, 1)
        : null,
    perRound: rounds.map((r) => ({
      addedP50Ms: round(r.addedP50Ms, 4),
      addedP99Ms: round(r.addedP99Ms, 4),
      throughputCostPct: round(r.costPct, 2),
    })),
    targets: run.targets,
    pass: {
      addedP50: addedP50Ms <= run.targets.addedP50Ms,
      throughputCost: throughputCostPct <= run.targets.throughputCostPct,
    },
  };
}

export type ScenarioSummary = ReturnType<typeof summarise> & { otherProcessesCores?: number };

const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

export function printSummary(s: ScenarioSummary): void {
  const row = (r: ScenarioSummary['routes']['baseline']) => [
    r.route,
    ms(r.p50Ms),
    ms(r.p99Ms),
    r.rps.toFixed(0),
    ms(r.loadedP50Ms, 2),
    r.serverCpuUsPerReq === null ? 'n/a' : r.serverCpuUsPerReq.toFixed(0),
  ];
  console.log(`\n== ${s.scenario}: ${s.title} ==`);
  console.log(
    table(
      ['route', 'p50 ms', 'p99 ms', 'req/s', 'p50 ms @c16', 'server CPU µs/req'],
      [row(s.routes.baseline), row(s.routes.signed)],
    ),
  );
  console.log(
    `per round: added p50 ${s.perRound.map((r) => ms(r.addedP50Ms)).join(' / ')} ms; ` +
      `throughput cost ${s.perRound.map((r) => `${r.throughputCostPct.toFixed(1)}%`).join(' / ')}`,
  );
  console.log(
    `ratios signed/baseline: p50 latency ${s.p50Ratio.toFixed(2)}x, throughput ${s.throughputRatio.toFixed(2)}x; ` +
      `added p99 ${ms(s.addedP99Ms)} ms` +
      (s.addedServerCpuUsPerReq === null
        ? ''
        : `; added server CPU ${s.addedServerCpuUsPerReq.toFixed(0)} µs/req`),
  );
  console.log(
    `added p50 latency: ${ms(s.addedP50Ms)} ms (target ≤ ${s.targets.addedP50Ms} ms)  ${verdict(s.pass.addedP50)}`,
  );
  console.log(
    `throughput cost: ${s.throughputCostPct.toFixed(1)}% (target ≤ ${s.targets.throughputCostPct}%)  ${verdict(s.pass.throughputCost)}`,
  );
  for (const note of s.notes) console.log(`note: ${note}`);
}
