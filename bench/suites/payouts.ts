/**
 * Suite `payouts` (issue 18): one payout run over N payees (default 10,000 vendors, --requests sets N),
 * each with a mobile money destination past its cooling period and two settled sales past the hold, sent
 * to an in-process transfer provider that answers at once (the run's own cost: the payables query,
 * one transaction per payout with its lines and journal, the claim and the applied answer). In
 * process, on the embedded database and on PostgreSQL (a schema of its own, dropped afterwards).
 * Prints the run's time, payouts per second and the process's peak RSS and heap during the run.
 */
import { randomBytes } from 'node:crypto';
import type { TransferProvider } from '../../src/integrations/transfers/types.ts';
import { createPayoutsModule } from '../../src/modules/payouts/index.ts';
import { openDatabase, type Db } from '../../src/platform/db/index.ts';
import { POSTGRES_URL, dropSchema, probePostgres } from '../lib/backends.ts';
import { positive, scenarios, writeResults, type ScenarioName, type SuiteOptions } from '../lib/options.ts';
import { CatalogService } from '../../src/modules/catalog/index.ts';
import { payeeDirectory } from '../../src/payee-directory.ts';
import { ms, round, table } from '../lib/stats.ts';

const silent = { warn() {}, info() {}, error() {}, debug() {}, child: () => silent } as never;

/** A provider that pays every transfer at once (the bench measures our side, not a network). */
const instant: TransferProvider = {
  name: 'bench',
  resolveName: async () => null,
  registerRecipient: async () => ({ state: 'registered', resolvedName: null, recipientCode: 'RCP_bench' }),
  send: async () => ({ state: 'paid', providerReference: 'b', feePesewas: 50, reason: null }),
  status: async () => ({ state: 'unknown' }),
  transferHint: () => undefined,
};

/** N vendors, each with a destination changed a week ago and two sales settled two days ago. */
async function load(db: Db, n: number): Promise<void> {
  await db.query(
    `insert into vendors (id, name, commission_bps, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng)
     select 'ven_b' || lpad(g::text, 6, '0'), 'Bench Vendor', 1000, 'Efua', '+233241234567', 'Makola', 5.55, -0.2 from generate_series(1, $1::int) g`,
    [n],
  );
  await db.query(
    `insert into payout_destinations (payee, vendor_id, kind, network, number, name, changed_at, changed_by)
     select 'vendor:ven_b' || lpad(g::text, 6, '0'), 'ven_b' || lpad(g::text, 6, '0'), 'mobile_money', 'mtn', '0241234567', 'Kofi Boateng', now() - interval '7 days', 'bench'
       from generate_series(1, $1::int) g`,
    [n],
  );
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into ledger_journals (id, kind, subject_id, memo, created_at)
       select 'jrn_b' || g, 'sale_settlement', 'sale_b' || g, 'bench sale', now() - interval '2 days' from generate_series(1, $1::int) g`,
      [n * 2],
    );
    await tx.query(
      `insert into ledger_entries (journal_id, account, amount_pesewas, created_at)
       select 'jrn_b' || g, a.account, a.amount, now() - interval '2 days' from generate_series(1, $1::int) g,
              lateral (values ('rider_cash_clearing', -(1500 + g % 700)), ('vendor_payable:ven_b' || lpad((1 + g % $2::int)::text, 6, '0'), 1500 + g % 700)) as a(account, amount)`,
      [n * 2, n],
    );
  });
  await db.query('analyze');
}

async function scenario(name: ScenarioName, n: number) {
  const schema = name === 'postgres' ? `bench_${randomBytes(5).toString('hex')}` : undefined;
  const db = await openDatabase(name === 'postgres' ? { kind: 'postgres', url: POSTGRES_URL, poolSize: 4, schema } : { kind: 'memory' });
  try {
    await load(db, n);
    const settings = { holdHours: 24, sameDayHoldHours: 2, minimumPesewas: 1000, approvalAbovePesewas: 10_000_000, coolingHours: 24, cutoffMinutes: 960, intervalMs: 0, sendingGraceSeconds: 60, runBatchSize: 1000, bulkSize: 100, sendConcurrency: 4, bulkIntervalMs: 0 };
    // The payees here are vendors only; partners' lookups are never asked.
    const noPartners = { partnerExists: async () => false, appsWithLiveKey: async () => [] };
    const payouts = createPayoutsModule({ db, clock: Date.now, log: silent, provider: instant, settings, directory: payeeDirectory(noPartners, new CatalogService(db, Date.now)) });
    let peakRss = process.memoryUsage().rss;
    let peakHeap = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 50);
    const t0 = performance.now();
    const result = await payouts.service.run('manual', 'bench');
    const elapsed = performance.now() - t0;
    clearInterval(sampler);
    const paid = (await db.query<{ n: number }>("select count(*)::int as n from payouts where status = 'paid'"))[0]!.n;
    const transit = (await db.query<{ n: number }>("select coalesce(sum(amount_pesewas), 0)::bigint as n from ledger_entries where account = 'payouts_in_transit'"))[0]!.n;
    if (paid !== n || Number(transit) !== 0) throw new Error(`${name}: ${paid} of ${n} paid, ${transit} left in transit`);
    return { payees: n, created: result!.counts.paid, seconds: round(elapsed / 1000, 2), perSecond: round(n / (elapsed / 1000), 0), peakRssMb: round(peakRss / 1048576, 0), peakHeapMb: round(peakHeap / 1048576, 0) };
  } finally {
    await db.close();
    if (schema) await dropSchema(schema);
  }
}

export async function runPayouts(opts: SuiteOptions): Promise<number> {
  const n = positive('requests', opts.requests, 10_000);
  const rows: Array<Awaited<ReturnType<typeof scenario>> & { scenario: string }> = [];
  for (const name of scenarios(opts.scenario)) {
    if (name === 'postgres') {
      try {
        await probePostgres();
      } catch (err) {
        console.log(`  postgres: skipped (${(err as Error).message})`);
        continue;
      }
    }
    console.log(`payout run over ${n} payees, ${name}`);
    rows.push({ scenario: name, ...(await scenario(name, n)) });
  }
  console.log(table(['scenario', 'payees', 'seconds', 'payouts/s', 'peak RSS MB', 'peak heap MB'], rows.map((r) => [r.scenario, String(r.payees), ms(r.seconds), String(r.perSecond), String(r.peakRssMb), String(r.peakHeapMb)])));
  console.log(`results: ${writeResults('payouts', false, { payees: n, rows })}`);
  return 0;
}
