/**
 * Suite `payouts` (issues 18 and 26): payout runs as the worker makes and sends them, in process, on
 * PostgreSQL (a schema of its own, dropped afterwards; `--scenario embedded` for PGlite at 1,000), with
 * the payouts module's default settings (batches of 1,000 payees, bulk requests of 100, 4 in flight,
 * 100 ms apart). Payees are vendors with a verified mobile money destination and two settled sales.
 * - creating a run's payouts for 1,000 and for 10,000 payees (until the first bulk request);
 * - 10,000 payees paid by a provider answering at once, then by one answering each request in 200 ms;
 * - three consecutive 10,000 runs on one database (each payee owed two new sales before each);
 * - the process's RSS idle, its peak during each run, and after it: at once (after a full collection)
 *   and again once idle SETTLE_MS (V8 has returned its pooled pages); the process runs with production's
 *   Node.js options (the Dockerfile's NODE_OPTIONS), as a server does.
 * The baseline is the same work without the platform's checks: one `insert … select` of a payout per
 * payee over the same ledger rows (what a bare Fastify + pg handler would do in one statement).
 */
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type {
  BulkAnswer,
  TransferOutcome,
  TransferProvider,
  TransferRequest,
} from '../../src/integrations/transfers/index.ts';
import { CatalogService } from '../../src/modules/catalog/index.ts';
import { createPayoutsModule, payoutSettings } from '../../src/modules/payouts/index.ts';
import { payeeDirectory } from '../../src/flows/payouts-find-payees.ts';
import { openDatabase, type Db } from '../../src/platform/db/index.ts';
import { dropSchema, POSTGRES_URL, probePostgres } from '../lib/backends.ts';
import { inProductionNodeOptions } from '../lib/node-options.ts';
import { positive, scenarios, writeResults, type SuiteOptions } from '../lib/options.ts';
import { round, table } from '../lib/stats.ts';

// A full collection before each RSS reading after a run, so what it reads is memory still held, not garbage not yet collected.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const silent = { warn() {}, info() {}, error() {}, debug() {}, child: () => silent } as never;
const MB = 1048576;

/** A provider answering every bulk request after `latencyMs`, each transfer paid; `firstSend` is when the first request came. */
function provider(
  latencyMs: number,
): TransferProvider & { firstSend: number | undefined; requests: number } {
  const paid = (): TransferOutcome => ({
    state: 'paid',
    providerReference: 'TRF_bench',
    feePesewas: 50,
    reason: null,
  });
  const p = {
    name: 'bench',
    maxBulk: 100,
    firstSend: undefined as number | undefined,
    requests: 0,
    resolveName: async () => null,
    registerRecipient: async () => ({
      state: 'registered' as const,
      resolvedName: null,
      recipientCode: 'RCP_bench',
    }),
    send: async () => paid(),
    async sendBulk(items: readonly TransferRequest[]): Promise<BulkAnswer> {
      p.firstSend ??= performance.now();
      p.requests++;
      if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
      return { state: 'answered', outcomes: new Map(items.map((i) => [i.reference, paid()])) };
    },
    status: async () => ({ state: 'unknown' as const }),
    transferHint: () => undefined,
  };
  return p;
}

const vendor = (g: string) => `'ven_b' || lpad(${g}::text, 6, '0')`;

/** N vendors with a verified destination changed a week ago. */
export async function payees(db: Db, n: number): Promise<void> {
  await db.query(
    `insert into vendors (id, name, commission_bps, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng)
     select ${vendor('g')}, 'Bench Vendor', 1000, 'Efua', '+233241234567', 'Makola', 5.55, -0.2 from generate_series(1, $1::int) g`,
    [n],
  );
  await db.query(
    `insert into payout_destinations (payee, vendor_id, kind, network, number, name, changed_at, changed_by, verification, recipient_code)
     select 'vendor:' || ${vendor('g')}, ${vendor('g')}, 'mobile_money', 'mtn', '0241234567', 'Kofi Boateng', now() - interval '7 days', 'bench', 'verified', 'RCP_bench'
       from generate_series(1, $1::int) g`,
    [n],
  );
}

/** Two sales settled two days ago for each of the N vendors (round `r` names them apart). */
export async function sales(db: Db, n: number, r: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into ledger_journals (id, kind, subject_id, memo, created_at)
       select 'jrn_b${r}_' || g, 'sale_settlement', 'sale_b${r}_' || g, 'bench sale', now() - interval '2 days' from generate_series(1, $1::int) g`,
      [n * 2],
    );
    await tx.query(
      `insert into ledger_entries (journal_id, account, amount_pesewas, created_at)
       select 'jrn_b${r}_' || g, a.account, a.amount, now() - interval '2 days' from generate_series(1, $1::int) g,
              lateral (values ('rider_cash_clearing', -(1500 + g % 700)), ('vendor_payable:' || ${vendor('(1 + g % $2::int)')}, 1500 + g % 700)) as a(account, amount)`,
      [n * 2, n],
    );
  });
  await db.query('analyze');
}

interface RunFigures {
  payees: number;
  createSeconds: number;
  totalSeconds: number;
  requests: number;
  peakRssMb: number;
  afterRssMb: number;
  idleRssMb: number;
}

/**
 * How long the server stays idle after a run before its RSS is read again: V8 returns the heap pages
 * it freed (kept in its page pool for reuse) once its memory reducer runs, which starts 8 s after the
 * allocation rate drops (--gc-memory-reducer-start-delay-ms) and takes two collections.
 */
const SETTLE_MS = 12_000;

/** One run over the database's payees, timed, with the process's RSS sampled. */
async function run(db: Db, n: number, latencyMs: number): Promise<RunFigures> {
  const transfers = provider(latencyMs);
  const noPartners = { partnerExists: async () => false, appsWithLiveKey: async () => [] };
  const settings = { ...payoutSettings({}, []), intervalMs: 0 };
  const payouts = createPayoutsModule({
    db,
    clock: Date.now,
    log: silent,
    provider: transfers,
    settings,
    directory: payeeDirectory(noPartners, new CatalogService(db, Date.now)),
  });
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const t0 = performance.now();
  const done = await payouts.service.run('manual', 'bench');
  const total = performance.now() - t0;
  clearInterval(sampler);
  if (done?.counts.paid !== n)
    throw new Error(`${done?.counts.paid} of ${n} paid: ${JSON.stringify(done?.counts)}`);
  const transit = (
    await db.query<{ n: number }>(
      "select coalesce(sum(amount_pesewas), 0)::bigint as n from ledger_entries where account = 'payouts_in_transit'",
    )
  )[0]!.n;
  if (Number(transit) !== 0) throw new Error(`${transit} left in transit`);
  gc();
  const afterRssMb = round(process.memoryUsage().rss / MB, 0);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const idleRssMb = round(process.memoryUsage().rss / MB, 0);
  return {
    payees: n,
    createSeconds: round(((transfers.firstSend ?? t0) - t0) / 1000, 2),
    totalSeconds: round(total / 1000, 2),
    requests: transfers.requests,
    peakRssMb: round(peak / MB, 0),
    afterRssMb,
    idleRssMb,
  };
}

/** A run over N new payees owed two sales each. */
async function once(db: Db, n: number, latencyMs: number): Promise<RunFigures> {
  await payees(db, n);
  await sales(db, n, 0);
  return run(db, n, latencyMs);
}

/** The bare side: one statement making a payout row per payee from the same uncovered ledger rows. */
async function baseline(db: Db): Promise<number> {
  await db.query('create table if not exists bench_bare_payouts (payee text, amount bigint)');
  const t0 = performance.now();
  await db.query(
    `insert into bench_bare_payouts select e.account, sum(e.amount_pesewas) from ledger_entries e join ledger_journals j on j.id = e.journal_id
      where e.account like 'vendor_payable:%' and j.kind = 'sale_settlement' group by e.account`,
  );
  return round((performance.now() - t0) / 1000, 2);
}

async function fresh<T>(name: 'postgres' | 'embedded', work: (db: Db) => Promise<T>): Promise<T> {
  const schema = name === 'postgres' ? `bench_${randomBytes(5).toString('hex')}` : undefined;
  const db = await openDatabase(
    name === 'postgres'
      ? { kind: 'postgres', url: POSTGRES_URL, poolSize: 10, schema }
      : { kind: 'memory' },
  );
  try {
    return await work(db);
  } finally {
    await db.close();
    if (schema) await dropSchema(schema);
  }
}

const ok = (pass: boolean) => (pass ? 'PASS' : 'MISS');

export async function runPayouts(opts: SuiteOptions): Promise<number> {
  // This process is the server here: it runs with production's Node.js options, as every bench server does.
  const rerun = await inProductionNodeOptions();
  if (rerun !== undefined) return rerun;
  const big = positive('requests', opts.requests, 10_000);
  const small = Math.max(1, Math.round(big / 10));
  const results: Record<string, unknown> = {};
  for (const name of scenarios(opts.scenario ?? 'postgres')) {
    if (name === 'postgres') await probePostgres();
    const n = name === 'postgres' ? big : small;
    gc();
    const idle = round(process.memoryUsage().rss / MB, 0);
    console.log(`payouts, ${name}: ${small} and ${n} payees (idle RSS ${idle} MB)`);
    const create1k = await fresh(name, (db) => once(db, small, 0));
    const instant = await fresh(name, (db) => once(db, n, 0));
    const slow = await fresh(name, (db) => once(db, n, 200));
    const repeated = await fresh(name, async (db) => {
      await payees(db, n);
      const rounds: RunFigures[] = [];
      for (let r = 0; r < 3; r++) {
        await sales(db, n, r);
        rounds.push(await run(db, n, 0));
      }
      return { rounds, bare: await baseline(db) };
    });
    const rows = [
      ['create, 1 run', String(small), String(create1k.createSeconds), '-', '-'],
      [
        'create, 1 run',
        String(n),
        String(instant.createSeconds),
        n === 10_000 ? '≤ 5 s' : '-',
        n === 10_000 ? ok(instant.createSeconds <= 5) : '-',
      ],
      [
        'create ratio',
        `${n}/${small}`,
        String(round(instant.createSeconds / create1k.createSeconds, 1)),
        '≤ 12×',
        ok(instant.createSeconds / create1k.createSeconds <= 12),
      ],
      [
        'paid, instant provider',
        String(n),
        String(instant.totalSeconds),
        '≤ 30 s',
        ok(instant.totalSeconds <= 30),
      ],
      [
        'paid, provider 200 ms',
        String(n),
        String(slow.totalSeconds),
        '≤ 180 s',
        ok(slow.totalSeconds <= 180),
      ],
      ...repeated.rounds.map((r, i) => [
        `repeated run ${i + 1}`,
        String(n),
        String(r.totalSeconds),
        i === 2 ? '≤ 1.2 × run 1' : '-',
        i === 2 ? ok(r.totalSeconds <= 1.2 * repeated.rounds[0]!.totalSeconds) : '-',
      ]),
      ['bare insert…select (baseline)', String(n), String(repeated.bare), '-', '-'],
    ];
    console.log(table(['measure', 'payees', 'seconds', 'target', 'verdict'], rows));
    const all = [create1k, instant, slow, ...repeated.rounds];
    const peak = Math.max(...all.map((r) => r.peakRssMb));
    const worst = (rss: (r: RunFigures) => number) =>
      Math.max(...all.map((r) => Math.abs(rss(r) - idle)));
    console.log(
      table(
        ['RSS', 'MB', 'target', 'verdict'],
        [
          ['idle', String(idle), '-', '-'],
          ['peak (all runs)', String(peak), `≤ ${idle + 150}`, ok(peak <= idle + 150)],
          [
            'after each run, at once',
            all.map((r) => r.afterRssMb).join(', '),
            `${idle - 50}…${idle + 50}`,
            ok(worst((r) => r.afterRssMb) <= 50),
          ],
          [
            `after each run, idle ${SETTLE_MS / 1000} s`,
            all.map((r) => r.idleRssMb).join(', '),
            `${idle - 50}…${idle + 50}`,
            ok(worst((r) => r.idleRssMb) <= 50),
          ],
        ],
      ),
    );
    results[name] = { idleRssMb: idle, create1k, instant, slow, repeated };
  }
  console.log(`results: ${writeResults('payouts', false, results)}`);
  return 0;
}
