import { describe, expect, it } from 'vitest';
import type { FakeHubtel } from '../../fakes/hubtel.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { audited } from '../../helpers/audit.ts';
import type { PartnerSetup, TestPlatform } from '../../helpers/harness.ts';
import {
  BUYER_WALLET,
  expectLedgerBalanced,
  getSale,
  refundedToWallet,
  reversalCheckDue,
  useHubtelSalesPlatform,
} from '../helpers.ts';

// A mobile money refund the transfer provider reverses after it succeeded (the wallet sent it back):
// learned by the refunds job's checks within the watch window, or at once from a signed webhook;
// applied once; raised to an operator, who sends it again under a new reference.

let hubtel: FakeHubtel;
let p: TestPlatform;
let s: PartnerSetup;
const transfers = new FakeTransfers();
useHubtelSalesPlatform(transfers, (started) => ({ hubtel, p, s } = started));

const db = () => p.app.platform.db;
const refunds = () => p.app.platform.catalog!.refunds;
const due = (saleId: string) => reversalCheckDue(p, saleId);
const refundedSale = () => refundedToWallet(p, s, hubtel);
const events = async (saleId: string) =>
  (
    await db().query<{ type: string }>(
      'select type from outbox_events where subject_id = $1 order by created_at, sequence',
      [saleId],
    )
  ).map((e) => e.type);

/** The journals about the sale and its refund's attempts, each with its legs, oldest first. */
async function ledgerOf(saleId: string) {
  const rows = await db().query<{
    id: string;
    kind: string;
    subject_id: string;
    account: string;
    amount_pesewas: string;
  }>(
    `select j.id, j.kind, j.subject_id, e.account, e.amount_pesewas from ledger_journals j join ledger_entries e on e.journal_id = j.id
      where j.subject_id = $1 or j.subject_id in (select unnest(array_append(r.earlier_references, r.reference)) from sale_refunds r where r.sale_id = $1)
      order by j.created_at, j.id, e.account`,
    [saleId],
  );
  const journals = new Map<
    string,
    { kind: string; subject: string; legs: Record<string, number> }
  >();
  for (const r of rows) {
    const j = journals.get(r.id) ?? { kind: r.kind, subject: r.subject_id, legs: {} };
    j.legs[r.account] = Number(r.amount_pesewas);
    journals.set(r.id, j);
  }
  return [...journals.values()];
}

describe('a buyer refund reversed after it succeeded', () => {
  it('is found by the job, booked back to refunds payable once, the sale owed again, and an operator sends it again under a new reference', async () => {
    const { saleId, total, reference } = await refundedSale();
    transfers.settle(reference, 'reversed');
    // Not asked before its check is due.
    await refunds().tick();
    expect((await refunds().forSale(saleId))!.status).toBe('succeeded');
    await due(saleId);
    await Promise.all([refunds().tick(), refunds().tick()]);
    await due(saleId);
    await refunds().tick();
    expect(await refunds().forSale(saleId)).toMatchObject({
      status: 'reversed',
      failure_reason: 'reversed by the bank',
      next_check_at: null,
      reversed_at: expect.any(Date),
    });
    const reversed = (await ledgerOf(saleId)).filter((j) => j.kind === 'sale_refund_reversed');
    expect(reversed).toEqual([
      {
        kind: 'sale_refund_reversed',
        subject: reference,
        legs: { 'transfer_clearing:fake': -total, sale_refunds_payable: total },
      },
    ]);
    expect((await getSale(s, { sale_id: saleId })).body.data).toMatchObject({
      state: 'failed',
      payment_status: 'refund_due',
      refund_due_ghs: total / 100,
      refund: { status: 'reversed', method: 'mobile_money' },
    });
    expect((await events(saleId)).filter((t) => t === 'safe.order.refund_reversed')).toHaveLength(
      1,
    );
    const [event] = await db().query<{ payload: { data: Record<string, any> } }>(
      "select payload from outbox_events where subject_id = $1 and type = 'safe.order.refund_reversed'",
      [saleId],
    );
    expect(event!.payload.data).toMatchObject({
      payment_status: 'refund_due',
      refund: {
        method: 'mobile_money',
        amount_ghs: total / 100,
        reason: 'reversed by the bank',
        reversed_at: expect.any(String),
      },
    });

    // Raised to an operator: listed, and sent again under a new reference (the reversed one never again).
    const listed = await p.admin('GET', '/refunds?status=reversed');
    expect(listed.body.refunds.map((r: { sale_id: string }) => r.sale_id)).toContain(saleId);
    const retried = await p.admin('POST', `/sales/${saleId}/refund/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      earlier_references: [reference],
      reversed_at: null,
    });
    expect(retried.body.reference).not.toBe(reference);
    expect(transfers.transfers.get(reference)!.calls).toBe(1);
    expect((await getSale(s, { sale_id: saleId })).body.data).toMatchObject({
      payment_status: 'refunded',
      refund: { status: 'succeeded' },
    });
    expect((await events(saleId)).filter((t) => t === 'safe.order.refunded')).toHaveLength(2);
    const journals = await ledgerOf(saleId);
    expect(journals.filter((j) => j.kind === 'sale_refund_paid').map((j) => j.subject)).toEqual([
      reference,
      retried.body.reference,
    ]);
    expect(journals.reduce((n, j) => n + (j.legs.sale_refunds_payable ?? 0), 0)).toBe(0);
    expect(await audited(p, { action: 'sale_refund.retry', target_id: saleId })).toHaveLength(1);
    await expectLedgerBalanced(p);
  });

  it('is learned at once from a signed transfer webhook; a bad signature or another reference changes nothing', async () => {
    const { saleId, reference } = await refundedSale();
    transfers.settle(reference, 'reversed');
    const hook = (body: unknown, signature = transfers.secret) =>
      p.fetch(`${p.url}/webhooks/transfers/fake`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-fake-signature': signature },
        body: JSON.stringify(body),
      });
    expect((await hook({ reference }, 'forged')).status).toBe(400);
    expect((await hook({ reference: 'srf_01JD2X5V8T3N0Q6W4RZK7B9MPZ' })).status).toBe(200);
    expect((await refunds().forSale(saleId))!.status).toBe('succeeded');
    expect((await hook({ reference })).status).toBe(200);
    expect((await refunds().forSale(saleId))!.status).toBe('reversed');
    expect((await hook({ reference })).status).toBe(200);
    expect((await ledgerOf(saleId)).filter((j) => j.kind === 'sale_refund_reversed')).toHaveLength(
      1,
    );
  });

  it('a reversed mobile money refund may go to another wallet an operator gives', async () => {
    const { saleId, reference } = await refundedSale();
    transfers.settle(reference, 'reversed');
    await due(saleId);
    await refunds().tick();
    const bad = await p.admin('POST', `/sales/${saleId}/refund/wallet`, {
      ...BUYER_WALLET,
      network: 'glo',
    });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect((await refunds().forSale(saleId))!.status).toBe('reversed');
    const sent = await p.admin('POST', `/sales/${saleId}/refund/wallet`, {
      network: 'telecel',
      number: '020 555 0102',
      name: 'Ama Mensah',
    });
    expect(sent.body).toMatchObject({
      status: 'succeeded',
      destination: { network: 'telecel', number: '0205550102' },
      earlier_references: [reference],
    });
    expect((await p.admin('POST', `/sales/${saleId}/refund/retry`)).body.code).toBe(
      'INVALID_TRANSITION',
    );
    expect(
      (await p.admin('POST', '/sales/sale_01JD2X5V8T3N0Q6W4RZK7B9MPZ/refund/retry')).status,
    ).toBe(404);
    expect((await p.admin('GET', '/refunds?status=lost')).status).toBe(400);
  });

  it('is no longer watched past the window: the job stops asking', async () => {
    const { saleId, reference } = await refundedSale();
    await db().query(
      "update sale_refunds set refunded_at = now() - interval '8 days', next_check_at = now() - interval '1 second' where sale_id = $1",
      [saleId],
    );
    transfers.settle(reference, 'reversed');
    await refunds().tick();
    expect(await refunds().forSale(saleId)).toMatchObject({
      status: 'succeeded',
      next_check_at: null,
    });
  });
});
