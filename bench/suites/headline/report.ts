/** The headline's verdicts, the previous run's ratios, and its printed tables and notes. */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { round, table } from '../../lib/stats.ts';
import {
  MEASURES,
  type PairResult,
  RELATIVE_TARGET,
  type Variant,
  type VariantResult,
} from './spec.ts';

/** Targets: absolute, within 15% of the reference variant's ratio, or none. */
export function judge(
  v: Variant,
  pairs: Array<Omit<PairResult, 'target' | 'targetNote' | 'pass'>>,
  done: VariantResult[],
): PairResult[] {
  return pairs.map((p) => {
    const spec = MEASURES.find((m) => m.key === p.measure)!;
    if (v.reportOnly) return { ...p, target: null, targetNote: 'report', pass: null };
    if (v.reference) {
      const ref = done
        .find((d) => d.variant === v.reference)
        ?.pairs.find((r) => r.measure === p.measure);
      if (!ref)
        return { ...p, target: null, targetNote: `n/a (${v.reference} not run)`, pass: null };
      const target = round(ref.ratio * RELATIVE_TARGET, 3);
      return {
        ...p,
        target,
        targetNote: `≥ ${target.toFixed(2)} (85% of ${v.reference})`,
        pass: p.ratio >= target,
      };
    }
    return {
      ...p,
      target: spec.target,
      targetNote: `≥ ${spec.target.toFixed(2)}`,
      pass: p.ratio >= spec.target,
    };
  });
}

/** Ratios of the last headline run on this machine (bench/results/headline.json), for "no regression". */
export function previousRun(): {
  commit: string;
  generatedAt: string;
  durationS: number | undefined;
  ratios: Map<string, number>;
} | null {
  try {
    const file = fileURLToPath(new URL('../../results/headline.json', import.meta.url));
    const prev = JSON.parse(readFileSync(file, 'utf8')) as {
      generatedAt: string;
      revision: { commit: string; srcDirty: boolean } | null;
      settings?: { durationSeconds?: number };
      variants: VariantResult[];
    };
    const ratios = new Map<string, number>();
    for (const v of prev.variants ?? [])
      for (const p of v.pairs ?? []) ratios.set(`${v.variant}/${p.measure}`, p.ratio);
    const commit = prev.revision
      ? `${prev.revision.commit}${prev.revision.srcDirty ? ' with uncommitted src/ changes' : ''}`
      : '?';
    return {
      commit,
      generatedAt: prev.generatedAt,
      durationS: prev.settings?.durationSeconds,
      ratios,
    };
  } catch {
    return null;
  }
}

/** Server process CPU per request, baseline (mean of both runs) → platform: steadier than req/s on a shared machine. */
export function cpu(p: PairResult): string {
  const a = p.baseline[0].serverCpuUsPerReq;
  const b = p.baseline[1].serverCpuUsPerReq;
  const q = p.platform.serverCpuUsPerReq;
  return a === null || b === null || q === null
    ? 'n/a'
    : `${((a + b) / 2).toFixed(0)} → ${q.toFixed(0)}`;
}

export const verdict = (pass: boolean | null) => (pass === null ? '-' : pass ? 'PASS' : 'MISS');
export const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

export function printVariant(r: VariantResult, prev: ReturnType<typeof previousRun>): void {
  console.log(`\n== ${r.variant}: ${r.title} ==`);
  console.log(`   baseline: ${r.baseline}; variant took ${r.seconds.toFixed(0)} s`);
  const rows = r.pairs.map((p) => {
    const before = prev?.ratios.get(`${r.variant}/${p.measure}`);
    return [
      p.label,
      String(p.connections),
      p.baseline[0].rps.toFixed(0),
      p.baseline[1].rps.toFixed(0),
      pct(p.drift),
      p.platform.rps.toFixed(0),
      p.ratio.toFixed(2),
      p.targetNote,
      verdict(p.pass),
      before === undefined ? '' : before.toFixed(2),
      cpu(p),
    ];
  });
  console.log(
    table(
      [
        'measure',
        'conns',
        'baseline req/s 1st',
        '2nd',
        'drift',
        'platform req/s',
        'ratio',
        'target',
        'verdict',
        'previous',
        'server CPU µs/req',
      ],
      rows,
    ),
  );
  const noisy = r.pairs.filter((p) => Math.abs(p.drift) > 0.1);
  if (noisy.length > 0)
    console.log(
      `   note: the baseline moved by more than 10% within ${noisy.map((p) => p.measure).join(', ')}: the machine's load changed; those ratios are noisy.`,
    );
  for (const p of r.pairs) {
    const b = p.backlogAfterPlatform;
    if (b.ms > 1000) {
      console.log(
        `   note: ${p.measure}: ${b.pending >= 200 ? '200 or more' : b.pending} webhook event(s) were due when the platform run ended; the dispatcher took ${(b.ms / 1000).toFixed(1)} s more to clear them, work that the run's req/s does not include.`,
      );
    }
  }
  const inline = r.pairs.reduce((n, p) => n + p.signedInline, 0);
  if (inline > 0)
    console.log(
      `   note: ${inline} request(s) ran out of pre-signed headers and were signed inside the timed window.`,
    );
  if (r.otherCores !== null)
    console.log(
      `   other processes used ${r.otherCores.toFixed(2)} of ${availableParallelism()} cores while the pairs ran${r.variant.startsWith('postgres') ? ' (PostgreSQL and Redis serving the bench among them)' : ''}.`,
    );
}

export function printWebhooks(results: VariantResult[]): void {
  const with_ = results.filter((r) => r.webhooks);
  if (with_.length === 0) return;
  console.log(
    '\n== webhooks: delivery.order.created to one local endpoint (answers 204), dispatcher defaults (WEBHOOK_POLL_MS 250) ==',
  );
  const rows = with_.flatMap((r) => {
    const w = r.webhooks!;
    return [
      [
        r.variant,
        `commit → first attempt, p99, no backlog (${w.trickle.orders} creates at ${w.trickle.perSecond}/s)`,
        `${w.trickle.fromResponseMs.p99.toFixed(0)} ms`,
        `p50 ${w.trickle.fromResponseMs.p50.toFixed(0)} ms; from created_at p99 ${w.trickle.fromCreatedAtMs.p99.toFixed(0)} ms`,
        `< ${w.trickle.targetP99Ms} ms`,
        verdict(w.trickle.pass),
      ],
      [
        r.variant,
        `deliveries/s ÷ creates/s (${w.throughput.created} orders, ${w.throughput.connections} conns)`,
        w.throughput.ratio.toFixed(2),
        `${w.throughput.deliveredPerS.toFixed(0)} / ${w.throughput.createdPerS.toFixed(0)} per s; tail ${w.throughput.tailMs.toFixed(0)} ms`,
        `≥ 1 (${w.throughput.slackRatio.toFixed(2)} with one poll of slack)`,
        verdict(w.throughput.pass),
      ],
    ];
  });
  console.log(table(['variant', 'measure', 'figure', 'detail', 'target', 'verdict'], rows));
}

export function printGlance(results: VariantResult[]): void {
  if (results.length < 2) return;
  console.log('\n== ratios at a glance (platform ÷ its baseline in the same run) ==');
  const rows = MEASURES.map((m) => [
    m.label,
    ...results.map((r) => {
      const p = r.pairs.find((x) => x.measure === m.key);
      return p
        ? `${p.ratio.toFixed(2)} ${p.pass === null ? '' : p.pass ? '✓' : '✗'}`.trim()
        : 'n/a';
    }),
    `≥ ${m.target}`,
  ]);
  console.log(table(['measure', ...results.map((r) => r.variant), 'target (postgres)'], rows));
  console.log(
    "✓/✗: against each variant's own target (see its table); the embedded variant has none.",
  );
}

export const NOTES = [
  'ratio = platform req/s ÷ the mean of the two baseline runs around it (baseline, platform, baseline again); drift = 2nd baseline ÷ 1st − 1, which shows the machine changing under the measure. The wallet measure\'s "baseline" is the platform itself: wallet-funded creates spread over 50 partners\' wallets, against all 50 clients on one wallet.',
  'the bare server (bench/baseline/server.ts) runs in its own process beside the platform: Fastify with its defaults, no logging, pg.Pool (or PGlite in memory for the embedded variant, with the same SQL); GET /noop answers without the database, GET /orders/:id is one primary-key select of a row shaped like delivery_orders, POST /orders one insert of such a row (same columns, checks and indexes, no foreign keys), returning it.',
  'what the platform does on top: signed health verifies the signature, nonce and rate limit and reuses a database check at most 1 s old (the bare no-op does no database work); orders.get reads the order, its timeline and its proof in one statement; orders.track reads the order, its timeline and who holds its job (dispatch) in one statement; catalog.list reads a page of listed products, then their variants, as the bare server does; orders.create validates, prices, and writes the order and its webhook outbox row in one statement (its first timeline entry is the order row itself).',
  "after each platform run the bench waits until no webhook event is due (operator API), so the dispatcher's catch-up does not land on the next baseline run; when that took over a second the table says so, as that work is missing from the platform run's figure.",
  'variants postgres+redis and postgres+info change one setting from postgres; their target is each ratio at least 85% of postgres\'s ratio in the same run. Embedded has no target; "previous" is the ratio of the last headline run on this machine (bench/results/headline.json) for spotting regressions.',
  "the wallet measure's 50 wallets belong to 50 partners, so its requests use 50 keys: each key's cached lookup (AUTH_CACHE_TTL_MS, 2 s) expires more often per request than the one key of the 1-wallet side; at the rates seen here that is a few % of requests on PostgreSQL, more when the rate per partner drops below one per 2 s (embedded).",
  "the embedded variant runs both servers on PGlite in memory (DATABASE_URL=memory: for the platform, as the other suites do): one in-process, single-session database each. As on PostgreSQL (the bare pool's statements unnamed, the platform's prepared per connection), the bare server sends its statements through PGlite's own query, parsed and planned on every call, and the platform prepares its own once per database: a read can beat its bare equivalent.",
  "server CPU µs/req is the server process's CPU time per request (/proc), the baseline's the mean of its two runs: it excludes PostgreSQL and Redis, includes PGlite (embedded), and moves much less than req/s when other processes take the cores.",
  'the throughput load comes from generator processes of their own (bench/lib/generators.ts) on the same cores, as many as the generator check above chose (from BENCH_GENERATORS, default 1, one more while one more raised the bare no-op by over 10%): closed loop, keep-alive, requests signed by the bench process before each timed slice; sequential latency runs from the bench process.',
];
