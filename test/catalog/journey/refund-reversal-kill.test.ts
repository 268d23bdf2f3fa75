import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { paystackEnv, startFakePaystack, type FakePaystack } from '../../fakes/paystack.ts';
import {
  ADMIN_TOKEN,
  onPostgres,
  SECRETS_KEY,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { spawnServer, type ServerProcess } from '../../helpers/process.ts';
import {
  expectLedgerBalanced,
  getSale,
  orderBody,
  placed,
  reversalCheckDue,
  salesPartner,
  shop,
  verifySale,
} from '../helpers.ts';

let p: TestPlatform;
let s: PartnerSetup;
let paystack: FakePaystack;
const children: ServerProcess[] = [];

describe('a refund reversal across a kill -9 of the server, then a restart', () => {
  beforeAll(async () => {
    if (!onPostgres) return;
    paystack = await startFakePaystack();
    p = await startPlatform({
      env: { ...paystackEnv(paystack), PAYSTACK_CUSTOMER_EMAIL: 'payments@partner-platform.test' },
    });
    s = await salesPartner(p);
  });
  // The test (its own app sells, refunds and reads the books) and the servers it kills share one
  // database: only PostgreSQL is shared by processes; the embedded database belongs to one.
  beforeEach((ctx) =>
    ctx.skip(!onPostgres, 'PostgreSQL only: the test and the server it kills share one database'),
  );
  afterAll(async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await p?.close();
    await paystack?.close();
  });

  /** The server as deployed, on the test's schema, collecting and refunding through the Paystack fake; its refunds job runs often. */
  const server = async () => {
    const started = await spawnServer({
      DATABASE_URL: process.env.DATABASE_URL!,
      DATABASE_SCHEMA: p.schema!,
      ADMIN_TOKEN,
      SECRETS_KEY,
      SANDBOX_QUICKSTART: 'off',
      WEBHOOK_DISPATCHER: 'off',
      ...paystackEnv(paystack, 60_000),
      PAYSTACK_CUSTOMER_EMAIL: 'payments@partner-platform.test',
      SALE_REFUND_INTERVAL_MS: '100',
      SALE_REFUND_GRACE_SECONDS: '1',
    });
    children.push(started);
    return started;
  };

  const db = () => p.app.platform.db;
  const refundOf = async (saleId: string) =>
    (await p.app.platform.catalog!.refunds.forSale(saleId))!;
  const countOf = async (sql: string, saleId: string) => (await db().query(sql, [saleId])).length;

  it('killed after Paystack answered that the refund was reversed, before that was applied: applied once after the restart, the books balanced', async () => {
    // A Paystack-paid sale whose delivery was cancelled, refunded: succeeded.
    const b = await shop(p);
    const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
    const theirs = (
      await db().query<{ client_reference: string }>(
        'select client_reference from sales where id = $1',
        [sale.sale_id],
      )
    )[0]!.client_reference.replaceAll('_', '-');
    paystack.pay(theirs);
    expect((await verifySale(s, sale.sale_id)).body.data).toMatchObject({ state: 'confirmed' });
    const orderId = (await getSale(s, { sale_id: sale.sale_id })).body.data.delivery.order_id;
    expect(
      (await p.admin('POST', `/delivery/orders/${orderId}/status`, { status: 'cancelled' })).status,
    ).toBe(200);
    const refunds = p.app.platform.catalog!.refunds;
    await refunds.tick();
    const ours = paystack.refunds.find((r) => r.transaction === theirs)!;
    ours.status = 'processed';
    await db().query(
      "update sale_refunds set processing_since = processing_since - interval '1 hour' where sale_id = $1",
      [sale.sale_id],
    );
    await refunds.tick();
    expect((await refundOf(sale.sale_id)).status).toBe('succeeded');

    // The payer's bank sends it back; its reversal check is due. The server asks Paystack, which
    // answers "reversed", and the answer never reaches the server: killed while waiting for it.
    ours.status = 'reversed';
    ours.reversedAt = new Date().toISOString();
    await reversalCheckDue(p, sale.sale_id);
    paystack.hold('drop', '/refund');
    const heldBefore = paystack.held;
    const first = await server();
    await expect
      .poll(() => paystack.held > heldBefore, { timeout: 30_000, interval: 50 })
      .toBe(true);
    first.child.kill('SIGKILL');
    await first.exited;
    paystack.release();
    expect((await refundOf(sale.sale_id)).status).toBe('succeeded');
    expect(
      await countOf(
        "select 1 from ledger_journals where kind = 'sale_refund_reversed' and subject_id in (select reference from sale_refunds where sale_id = $1)",
        sale.sale_id,
      ),
    ).toBe(0);

    // A new server asks again and applies it, once.
    const second = await server();
    await expect
      .poll(async () => (await refundOf(sale.sale_id)).status, { timeout: 45_000, interval: 100 })
      .toBe('reversed');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const refund = await refundOf(sale.sale_id);
    expect(refund).toMatchObject({ status: 'reversed', next_check_at: null });
    expect(
      await countOf(
        "select 1 from ledger_journals where kind = 'sale_refund_reversed' and subject_id = $1",
        refund.reference,
      ),
    ).toBe(1);
    expect(
      await countOf(
        "select 1 from outbox_events where subject_id = $1 and type = 'safe.order.refund_reversed'",
        sale.sale_id,
      ),
    ).toBe(1);
    expect((await getSale(s, { sale_id: sale.sale_id })).body.data).toMatchObject({
      payment_status: 'refund_due',
      refund: { status: 'reversed' },
    });
    // Owed again in full: the sale's and its refund's journals leave the total on refunds payable.
    const owed = await db().query<{ n: string }>(
      `select coalesce(sum(e.amount_pesewas), 0)::bigint as n from ledger_entries e join ledger_journals j on j.id = e.journal_id
        where e.account = 'sale_refunds_payable' and (j.subject_id = $1 or j.subject_id = $2)`,
      [sale.sale_id, refund.reference],
    );
    expect(Number(owed[0]!.n)).toBe(Math.round(sale.total_ghs * 100));
    await expectLedgerBalanced(p);
  }, 120_000);
});
