import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paystackEnv, startFakePaystack, type FakePaystack } from '../../fakes/paystack.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { startPlatform, type PartnerSetup, type TestPlatform } from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { clientReferenceOf } from '../../helpers/orders-read.ts';
import {
  expectLedgerBalanced,
  getSale,
  journals,
  orderBody,
  placed,
  reversalCheckDue,
  salesPartner,
  shop,
  verifySale,
} from '../helpers.ts';

// Buyer refunds through Paystack (a gateway that refunds its charges): a prepaid sale paid, then its
// delivery cancelled, is refunded once, even when Paystack's answer is lost or two workers race.

let paystack: FakePaystack;
let p: TestPlatform;
let s: PartnerSetup;
const transfers = new FakeTransfers();
beforeAll(async () => {
  paystack = await startFakePaystack();
  p = await startPlatform({
    socket: false,
    env: { ...paystackEnv(paystack), PAYSTACK_CUSTOMER_EMAIL: 'payments@partner-platform.test' },
    transfers,
  });
  s = await salesPartner(p);
});
afterAll(async () => {
  await p.close();
  await paystack.close();
});

const db = () => p.app.platform.db;
const refunds = () => p.app.platform.catalog!.refunds;
const clientReference = (saleId: string) => clientReferenceOf(p, saleId);
const theirs = (ref: string) => ref.replaceAll('_', '-');
/** Paystack refunds of the sale's payment, as the fake holds them. */
const paystackRefunds = (ref: string) =>
  paystack.refunds.filter((r) => r.transaction === theirs(ref));
/** Makes a processing refund look past the grace, as the next run after a timeout or a crash sees it. */
const age = (saleId: string) =>
  db().query(
    "update sale_refunds set processing_since = processing_since - interval '1 hour' where sale_id = $1",
    [saleId],
  );
const events = async (saleId: string) => (await eventsAbout(p, saleId)).map((e) => e.type);

/** A Paystack-paid sale whose delivery was cancelled: refund_due. */
async function owedSale(): Promise<{ saleId: string; ref: string; total: number }> {
  const b = await shop(p);
  const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
  const ref = await clientReference(sale.sale_id);
  paystack.pay(theirs(ref));
  expect((await verifySale(s, sale.sale_id)).body.data).toMatchObject({
    state: 'confirmed',
    payment_status: 'paid',
  });
  const orderId = (await getSale(s, { sale_id: sale.sale_id })).body.data.delivery.order_id;
  expect(
    (await p.admin('POST', `/delivery/orders/${orderId}/status`, { status: 'cancelled' })).status,
  ).toBe(200);
  expect((await getSale(s, { sale_id: sale.sale_id })).body.data).toMatchObject({
    state: 'failed',
    payment_status: 'refund_due',
  });
  return { saleId: sale.sale_id, ref, total: Math.round(sale.total_ghs * 100) };
}

describe('a prepaid sale that fails after payment', () => {
  it('is refunded through Paystack once: ledger, event, orders.get', async () => {
    const { saleId, ref, total } = await owedSale();
    await refunds().tick();
    // Paystack queues the refund: it stays processing until Paystack says processed.
    expect((await getSale(s, { sale_id: saleId })).body.data.refund).toEqual({
      status: 'processing',
      method: 'gateway_refund',
      amount_ghs: total / 100,
      refunded_at: null,
    });
    const mine = paystackRefunds(ref);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.amount).toBe(total);
    mine[0]!.status = 'processed';
    await refunds().tick();
    expect((await getSale(s, { sale_id: saleId })).body.data.refund.status).toBe('processing');
    await age(saleId);
    await refunds().tick();
    await refunds().tick();
    const got = (await getSale(s, { sale_id: saleId })).body.data;
    expect(got).toMatchObject({
      state: 'failed',
      payment_status: 'refunded',
      refund_due_ghs: total / 100,
      refund: { status: 'succeeded', method: 'gateway_refund', amount_ghs: total / 100 },
    });
    expect(Date.parse(got.refund.refunded_at)).toBeGreaterThan(0);
    expect((await journals(p, saleId)).find((j) => j.kind === 'sale_refund_paid')).toEqual({
      kind: 'sale_refund_paid',
      entries: { 'gateway_clearing:paystack': total, sale_refunds_payable: -total },
    });
    expect((await events(saleId)).filter((t) => t === 'safe.order.refunded')).toHaveLength(1);
    expect(paystackRefunds(ref)).toHaveLength(1);
    // Its journal is keyed by the attempt; reconciliation maps that key to the reference Paystack saw.
    const attempt = (await refunds().forSale(saleId))!.reference;
    expect(
      (await p.app.platform.catalog!.operatorSales.references([saleId, attempt])).get(attempt),
    ).toBe(ref);
    // What the sale owed back is paid: its journals (the sale's and its refund attempt's) leave nothing on refunds payable.
    expect(
      (await journals(p, saleId)).reduce((n, j) => n + (j.entries.sale_refunds_payable ?? 0), 0),
    ).toBe(0);
    await expectLedgerBalanced(p);
  });

  it('after a lost answer asks Paystack for the refund and never refunds twice', async () => {
    const { saleId, ref } = await owedSale();
    paystack.failNext('drop', '/refund');
    await refunds().tick();
    expect((await refunds().forSale(saleId))!.status).toBe('processing');
    expect(paystackRefunds(ref)).toHaveLength(1);
    await age(saleId);
    await refunds().tick();
    expect((await refunds().forSale(saleId))!.status).toBe('processing');
    paystackRefunds(ref)[0]!.status = 'processed';
    await age(saleId);
    await refunds().tick();
    expect((await refunds().forSale(saleId))!.status).toBe('succeeded');
    expect(paystackRefunds(ref)).toHaveLength(1);
    expect(
      paystack.requests.filter(
        (r) =>
          r.method === 'POST' &&
          r.path === '/refund' &&
          JSON.parse(r.body).transaction === theirs(ref),
      ),
    ).toHaveLength(1);
  });

  it('a refund Paystack never received fails for an operator, and the retry refunds once', async () => {
    const { saleId, ref } = await owedSale();
    paystack.failNext('timeout', '/refund');
    await refunds().tick();
    await age(saleId);
    await refunds().tick();
    expect(await refunds().forSale(saleId)).toMatchObject({
      status: 'failed',
      failure_reason: 'the gateway never received the refund',
    });
    expect(paystackRefunds(ref)).toHaveLength(0);
    await expect(refunds().retry(saleId)).resolves.toMatchObject({
      status: 'processing',
      attempts: 2,
    });
    await expect(refunds().retry(saleId)).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
    expect(paystackRefunds(ref)).toHaveLength(1);
  });

  it('two workers racing open and send one refund', async () => {
    const { saleId, ref } = await owedSale();
    await Promise.all([refunds().tick(), refunds().tick(), refunds().tick()]);
    expect(
      await db().query('select sale_id from sale_refunds where sale_id = $1', [saleId]),
    ).toHaveLength(1);
    expect(paystackRefunds(ref)).toHaveLength(1);
    paystackRefunds(ref)[0]!.status = 'processed';
    await age(saleId);
    await Promise.all([refunds().tick(), refunds().tick()]);
    expect((await journals(p, saleId)).filter((j) => j.kind === 'sale_refund_paid')).toHaveLength(
      1,
    );
    expect((await events(saleId)).filter((t) => t === 'safe.order.refunded')).toHaveLength(1);
  });
});

describe("a Paystack refund the payer's bank sends back after it was processed", () => {
  it("is booked back to refunds payable once, the sale owed again, and the operator's retry refunds through Paystack again", async () => {
    const { saleId, ref, total } = await owedSale();
    await refunds().tick();
    const [first] = paystackRefunds(ref);
    first!.status = 'processed';
    await age(saleId);
    await refunds().tick();
    const succeeded = (await refunds().forSale(saleId))!;
    expect(succeeded.status).toBe('succeeded');
    first!.status = 'reversed';
    first!.reversedAt = new Date().toISOString();
    // Its reversal check comes due (every SALE_REFUND_RECHECK_MINUTES).
    await reversalCheckDue(p, saleId);
    await Promise.all([refunds().tick(), refunds().tick()]);
    expect(await refunds().forSale(saleId)).toMatchObject({
      status: 'reversed',
      failure_reason: 'the gateway reversed the refund (reversed)',
    });
    expect((await getSale(s, { sale_id: saleId })).body.data).toMatchObject({
      payment_status: 'refund_due',
      refund: { status: 'reversed', method: 'gateway_refund' },
    });
    expect((await journals(p, saleId)).find((j) => j.kind === 'sale_refund_reversed')).toEqual({
      kind: 'sale_refund_reversed',
      entries: { 'gateway_clearing:paystack': -total, sale_refunds_payable: total },
    });
    expect((await events(saleId)).filter((t) => t === 'safe.order.refund_reversed')).toHaveLength(
      1,
    );

    await expect(refunds().retry(saleId)).resolves.toMatchObject({
      status: 'processing',
      earlier_references: [succeeded.reference],
    });
    expect(paystackRefunds(ref)).toHaveLength(2);
    paystackRefunds(ref)[1]!.status = 'processed';
    await age(saleId);
    await refunds().tick();
    expect((await getSale(s, { sale_id: saleId })).body.data).toMatchObject({
      payment_status: 'refunded',
      refund: { status: 'succeeded' },
    });
    const owed = await db().query<{ n: string }>(
      `select coalesce(sum(e.amount_pesewas), 0)::bigint as n from ledger_entries e join ledger_journals j on j.id = e.journal_id
        where e.account = 'sale_refunds_payable' and j.subject_id in (select unnest(array_append(r.earlier_references, r.reference)) from sale_refunds r where r.sale_id = $1 union select $1)`,
      [saleId],
    );
    expect(Number(owed[0]!.n)).toBe(0);
    await expectLedgerBalanced(p);
  });
});

describe('a payment that arrives for a sale that already failed', () => {
  it('is refunded through Paystack', async () => {
    const b = await shop(p);
    const sale = await placed(s, orderBody(b, { payment_method: 'online' }));
    await db().query(
      "update sales set expires_at = expires_at - interval '31 minutes' where id = $1",
      [sale.sale_id],
    );
    await p.app.platform.catalog!.jobs.tick();
    expect((await getSale(s, { sale_id: sale.sale_id })).body.data).toMatchObject({
      state: 'failed',
      payment_status: 'expired',
    });
    const ref = await clientReference(sale.sale_id);
    paystack.pay(theirs(ref));
    expect((await verifySale(s, sale.sale_id)).body.data).toMatchObject({
      state: 'failed',
      payment_status: 'refund_due',
    });
    await refunds().tick();
    paystackRefunds(ref)[0]!.status = 'processed';
    await age(sale.sale_id);
    await refunds().tick();
    expect((await getSale(s, { sale_id: sale.sale_id })).body.data).toMatchObject({
      payment_status: 'refunded',
      refund: { status: 'succeeded', method: 'gateway_refund', amount_ghs: sale.total_ghs },
    });
    expect((await journals(p, sale.sale_id)).map((j) => j.kind)).toEqual([
      'sale_late_payment',
      'sale_refund_paid',
    ]);
    expect(paystackRefunds(ref)).toHaveLength(1);
    await expectLedgerBalanced(p);
  });
});
