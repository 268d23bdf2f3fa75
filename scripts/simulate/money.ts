import type { SimServer } from './server.ts';

/** A courier holding at least this much cash after a job takes it to the hub (GHS 500). */
export const HANDOVER_AT_PESEWAS = 50_000;

/** The cashier records what a courier hands in (all they hold); the same-day run follows it. */
export async function handOver(s: SimServer, courierId: string, atLeast = 1): Promise<number> {
  const held = Number((await s.admin('GET', `/cash/couriers/${courierId}`)).balance_pesewas);
  if (held < atLeast) return 0;
  await s.admin('POST', `/cash/couriers/${courierId}/handovers`, { amount_pesewas: held });
  return held;
}

export interface PayoutOutcome {
  runId: string;
  payouts: number;
  approved: number;
  paid: number;
  /** Payouts still not paid at the end (sending, pending, failed ...). */
  unpaid: number;
  paidPesewas: number;
}

/** Waits (wall time) for `check` to be true, asking every 100 ms. */
async function until(check: () => Promise<boolean>, what: string, wallMs = 120_000): Promise<void> {
  const deadline = Date.now() + wallMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The day's payout run, as finance runs it: started by one operator (POST /payouts/runs), the
 * payouts above the approval threshold approved by a second, then every payout followed until the
 * transfer provider has answered.
 */
export async function payoutRun(s: SimServer, checkerToken: string): Promise<PayoutOutcome> {
  // Same-day runs started by handovers finish first, so that the day's run finds what they left.
  await s.app.platform.payouts.runRequests.settled();
  const started = await s.admin('POST', '/payouts/runs');
  const runId = started.run_id as string;
  await until(
    async () => (await s.admin('GET', `/payouts/runs/${runId}`)).status === 'done',
    `payout run ${runId}`,
  );
  const waiting = (await s.admin('GET', '/payouts?status=awaiting_approval')).data as Array<{
    payout_id?: string;
    id?: string;
  }>;
  for (const p of waiting)
    await s.admin('POST', `/payouts/${p.payout_id ?? p.id}/approve`, {}, checkerToken);
  const open = ['created', 'sending', 'pending', 'awaiting_approval'];
  const rows = () =>
    s.app.platform.db.query<{ status: string; n: number; total: number }>(
      'select status, count(*)::int as n, coalesce(sum(amount_pesewas), 0)::bigint as total from payouts group by status',
    );
  await until(
    async () => (await rows()).every((r) => !open.includes(r.status)),
    'payouts to be paid',
  );
  const all = await rows();
  const count = (st: string) => all.find((r) => r.status === st)?.n ?? 0;
  return {
    runId,
    payouts: all.reduce((a, r) => a + r.n, 0),
    approved: waiting.length,
    paid: count('paid'),
    unpaid: all.filter((r) => r.status !== 'paid').reduce((a, r) => a + r.n, 0),
    paidPesewas: Number(all.find((r) => r.status === 'paid')?.total ?? 0),
  };
}

export interface MoneyChecks {
  /** Sum of every ledger entry (a trial balance): 0 when the books balance. */
  trialBalancePesewas: number;
  unbalancedJournals: number;
  /** Vendors' and partners' payables owed at least the payout minimum and not paid out (summed). */
  payablesUnpaidPesewas: number;
  /** Payables under the payout minimum: carried to a later run by design, not a difference. */
  payablesCarriedPesewas: number;
  /** Payout lines covering a sale whose delivery was not delivered. */
  paidForUndelivered: number;
  /** Cash couriers still hold after the day's last handovers. */
  courierCashHeldPesewas: number;
  /** Differences of the day's reconciliations (couriers' cash; money out when a statement exists). */
  reconciliationDifferences: number;
}

/** The money checks, read from the ledger and the payouts' lines after the run. */
export async function moneyChecks(s: SimServer, days: string[]): Promise<MoneyChecks> {
  const db = s.app.platform.db;
  const one = async (sql: string) => Number((await db.query<{ n: number }>(sql))[0]?.n ?? 0);
  const trial = await one(
    'select coalesce(sum(amount_pesewas), 0)::bigint as n from ledger_entries',
  );
  const unbalanced = await one(
    'select count(*)::int as n from (select journal_id from ledger_entries group by journal_id having sum(amount_pesewas) <> 0) j',
  );
  const owed = await db.query<{ b: number }>(
    `select sum(amount_pesewas)::bigint as b from ledger_entries
      where account like 'vendor_payable:%' or account like 'partner_markup_payable:%' group by account`,
  );
  const minimum = s.app.platform.config.payouts.minimumPesewas;
  const sum = (rows: Array<{ b: number }>) => rows.reduce((a, r) => a + Number(r.b), 0);
  const undelivered = await one(
    `select count(*)::int as n from payout_lines l join sales s on s.id = l.subject_id
      left join delivery_orders d on d.id = s.delivery_order_id
      where not l.released and (d.status is null or d.status <> 'delivered')`,
  );
  const cash = await one(
    "select coalesce(-sum(amount_pesewas), 0)::bigint as n from ledger_entries where account like 'courier_cash:%'",
  );
  let differences = 0;
  for (const date of days) {
    const day = await s.admin('POST', '/reconciliation/days', { source: 'rider_cash', date });
    differences += Number(day.differences ?? 0);
  }
  return {
    trialBalancePesewas: trial,
    unbalancedJournals: unbalanced,
    payablesUnpaidPesewas: sum(owed.filter((r) => Number(r.b) >= minimum)),
    payablesCarriedPesewas: sum(owed.filter((r) => Number(r.b) < minimum)),
    paidForUndelivered: undelivered,
    courierCashHeldPesewas: cash,
    reconciliationDifferences: differences,
  };
}
