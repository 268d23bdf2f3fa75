import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  PaystackTransfers,
  toPaystackReference,
} from '../../../src/integrations/transfers/paystack.ts';
import { startFakePaystack, type FakePaystack } from '../../fakes/paystack.ts';
import {
  ADMIN_TOKEN,
  onPostgres,
  SECRETS_KEY,
  startPlatform,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { spawnServer, type ServerProcess } from '../../helpers/process.ts';
import { balanceOf, expectBalanced, HOUR, settleSale, vendorPayee } from '../helpers.ts';

const PAYEES = 5;
const FEE = 100; // what the Paystack fake charges per settled transfer

let p: TestPlatform;
let paystack: FakePaystack;
const children: ServerProcess[] = [];

describe('payouts across a kill -9 of the server, then a restart', () => {
  beforeAll(async () => {
    if (!onPostgres) return;
    paystack = await startFakePaystack();
    // The test's app verifies the payees' destinations with the same Paystack: their recipients are the ones the bulk transfers name.
    paystack.accountNames.set('MTN:0241234567', 'Kofi Boateng');
    p = await startPlatform({
      transfers: new PaystackTransfers({
        secretKey: paystack.secretKey,
        baseUrl: paystack.url,
        timeoutMs: 2000,
      }),
    });
  });
  // The test (its own app seeds payees and reads the books) and the servers it kills share one
  // database: only PostgreSQL is shared by processes; the embedded database belongs to one.
  beforeEach((ctx) =>
    ctx.skip(!onPostgres, 'PostgreSQL only: the test and the server it kills share one database'),
  );
  afterAll(async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await p?.close();
    await paystack?.close();
  });

  /** The server as deployed, on the test's schema, paying out through the Paystack fake. */
  const server = async (env: Record<string, string>) => {
    const started = await spawnServer({
      DATABASE_URL: process.env.DATABASE_URL!,
      DATABASE_SCHEMA: p.schema!,
      ADMIN_TOKEN,
      SECRETS_KEY,
      SANDBOX_QUICKSTART: 'off',
      WEBHOOK_DISPATCHER: 'off',
      PAYOUT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: paystack.secretKey,
      PAYSTACK_BASE_URL: paystack.url,
      // Longer than the test waits: the killed server is still waiting for the held answer.
      PAYSTACK_TIMEOUT_MS: '60000',
      ...env,
    });
    children.push(started);
    return started;
  };

  const payoutsOf = (payees: string[]) =>
    p.app.platform.db.query<{
      id: string;
      payee: string;
      status: string;
      amount_pesewas: number;
      fee_pesewas: number | null;
    }>(
      'select id, payee, status, amount_pesewas, fee_pesewas from payouts where payee = any($1::text[]) order by payee',
      [payees],
    );
  /** Requests the fake held and never handled (a `timeout` hold): Paystack never received them. */
  let unhandled = new Set<unknown>();
  /** How often the reference was sent to Paystack and received, alone or in a bulk transfer. */
  const transferPosts = (reference: string) =>
    paystack.requests
      .filter(
        (r) =>
          r.method === 'POST' &&
          (r.path === '/transfer' || r.path === '/transfer/bulk') &&
          !unhandled.has(r),
      )
      .flatMap((r) =>
        r.path === '/transfer' ? [JSON.parse(r.body)] : JSON.parse(r.body).transfers,
      )
      .filter((t: { reference: string }) => t.reference === reference).length;

  /**
   * Five payees are owed; a server runs their payouts while the fake holds its calls to `hold.path`
   * (`timeout`: never handled; `drop`: handled, the answer never sent) after the first `hold.skip`.
   * Once `killed` holds, the server is killed with SIGKILL; `atKill` checks what the kill left.
   * A new server then recovers alone (its payouts job), while the provider settles what it holds.
   */
  async function killAndRecover(opts: {
    hold: { kind: 'timeout' | 'drop'; path: string; skip?: number };
    transferStatus: 'pending' | 'success';
    /** Besides a call held: what must hold before the kill. */
    killed?: (statuses: string[]) => boolean;
    atKill: (statuses: string[], atProvider: number) => void;
  }): Promise<void> {
    const vendors = [];
    for (let i = 0; i < PAYEES; i++) vendors.push(await vendorPayee(p));
    for (const [i, v] of vendors.entries())
      await settleSale(p, v.account, 2000 + i, Date.now() - 30 * HOUR);
    const payees = vendors.map((v) => `vendor:${v.id}`);
    const statuses = async () => (await payoutsOf(payees)).map((r) => r.status);

    paystack.newTransferStatus = opts.transferStatus;
    paystack.hold(opts.hold.kind, opts.hold.path, opts.hold.skip);
    const heldBefore = paystack.held;
    // The grace a payout's next check is set with when it is created or sent: short, so the restart recovers soon.
    // Bulk transfers of two, one request at a time: the kill lands between two of a run's requests.
    const first = await server({
      PAYOUT_INTERVAL_MS: '0',
      PAYOUT_SENDING_GRACE_SECONDS: '1',
      PAYOUT_BULK_SIZE: '2',
      PAYOUT_SEND_CONCURRENCY: '1',
    });
    // The run's request never completes: its server dies first.
    const run = fetch(`${first.url}/admin/v1/payouts/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    }).catch(() => undefined);
    await expect
      .poll(async () => paystack.held > heldBefore && (opts.killed?.(await statuses()) ?? true), {
        timeout: 30_000,
        interval: 50,
      })
      .toBe(true);
    first.child.kill('SIGKILL');
    await first.exited;
    await run;
    unhandled = new Set(
      opts.hold.kind === 'timeout'
        ? paystack.requests.filter((r) => r.path === opts.hold.path)
        : [],
    );
    paystack.release();
    const atKill = await payoutsOf(payees);
    expect(atKill).toHaveLength(PAYEES);
    opts.atKill(
      atKill.map((r) => r.status),
      atKill.filter((r) => paystack.transfers.has(toPaystackReference(r.id))).length,
    );

    const second = await server({ PAYOUT_INTERVAL_MS: '100', PAYOUT_SENDING_GRACE_SECONDS: '1' });
    // The provider settles every transfer it holds, as it would in its own time.
    const settled = async () => {
      for (const t of paystack.transfers.values())
        if (t.status === 'pending') paystack.settleTransfer(t.reference, 'success');
      return statuses();
    };
    await expect
      .poll(settled, { timeout: 45_000, interval: 100 })
      .toEqual(Array(PAYEES).fill('paid'));
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    // Exactly once: one payout per payee, one transfer per reference at the provider, sent once, each for its amount.
    const paid = await payoutsOf(payees);
    expect(paid.map((r) => r.payee).sort()).toEqual([...payees].sort());
    for (const r of paid) {
      const reference = toPaystackReference(r.id);
      expect(paystack.transfers.get(reference)?.amount).toBe(Number(r.amount_pesewas));
      expect(transferPosts(reference)).toBe(1);
      expect(Number(r.fee_pesewas)).toBe(FEE);
    }
    expect(paid.map((r) => Number(r.amount_pesewas)).sort((a, b) => a - b)).toEqual(
      vendors.map((_, i) => 2000 + i),
    );
    // The books: every payable paid down to zero, nothing left in transit, the provider's clearing holds amount and fee.
    for (const v of vendors) expect(await balanceOf(p, v.account)).toBe(0);
    const legs = await p.app.platform.db.query<{ account: string; n: string }>(
      `select e.account, sum(e.amount_pesewas)::bigint as n from ledger_entries e join ledger_journals j on j.id = e.journal_id
        where j.subject_id = any($1::text[]) group by e.account order by e.account`,
      [paid.map((r) => r.id)],
    );
    const total = paid.reduce((n, r) => n + Number(r.amount_pesewas), 0);
    expect(
      Object.fromEntries(
        legs
          .filter((l) => !l.account.startsWith('vendor_payable:'))
          .map((l) => [l.account, Number(l.n)]),
      ),
    ).toEqual({
      payouts_in_transit: 0,
      'transfer_clearing:paystack': total + PAYEES * FEE,
      transfer_fees: -PAYEES * FEE,
    });
    expect(await balanceOf(p, 'payouts_in_transit')).toBe(0);
    await expectBalanced(p);
  }

  const open = (s: string) => s === 'created' || s === 'sending';

  it(
    'killed after the payouts were created, with the bulk transfer never received: each is sent once after the restart',
    () =>
      killAndRecover({
        hold: { kind: 'timeout', path: '/transfer/bulk' },
        transferStatus: 'pending',
        atKill: (statuses, atProvider) => {
          expect(statuses.every(open)).toBe(true);
          expect(atProvider).toBe(0);
        },
      }),
    90_000,
  );

  it(
    'killed after the provider accepted a bulk transfer, before its answers were written: resolved by status, never sent again',
    () =>
      killAndRecover({
        hold: { kind: 'drop', path: '/transfer/bulk' },
        transferStatus: 'pending',
        atKill: (statuses, atProvider) => {
          expect(statuses.every(open)).toBe(true);
          expect(atProvider).toBeGreaterThan(0);
        },
      }),
    90_000,
  );

  it(
    'killed mid-run after a bulk transfer was confirmed paid, with the next accepted and unanswered: the rest paid once, the paid untouched',
    () =>
      killAndRecover({
        hold: { kind: 'drop', path: '/transfer/bulk', skip: 1 },
        transferStatus: 'success',
        killed: (statuses) => statuses.filter((s) => s === 'paid').length === 2,
        atKill: (statuses, atProvider) => {
          expect(statuses.filter((s) => s === 'paid')).toHaveLength(2);
          expect(statuses.filter((s) => s !== 'paid').every(open)).toBe(true);
          expect(atProvider).toBeGreaterThan(2);
        },
      }),
    90_000,
  );
});
