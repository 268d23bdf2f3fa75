import { describe, expect, it } from 'vitest';
import type { FakeHubtel } from '../../fakes/hubtel.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import type { PartnerSetup, TestPlatform } from '../../helpers/harness.ts';
import {
  BUYER_WALLET,
  expectLedgerBalanced,
  getSale,
  hubtelOwedSale,
  journals,
  useHubtelSalesPlatform,
} from '../helpers.ts';

// Hubtel's checkout cannot refund: what a Hubtel-paid sale owes goes back by a mobile money transfer
// to a wallet an operator confirms.

let hubtel: FakeHubtel;
let p: TestPlatform;
let s: PartnerSetup;
const transfers = new FakeTransfers();
useHubtelSalesPlatform(transfers, (started) => ({ hubtel, p, s } = started));

const db = () => p.app.platform.db;
const refunds = () => p.app.platform.catalog!.refunds;
const age = (saleId: string) =>
  db().query(
    "update sale_refunds set processing_since = processing_since - interval '1 hour' where sale_id = $1",
    [saleId],
  );
const wallet = BUYER_WALLET;
const owedSale = () => hubtelOwedSale(p, s, hubtel);

describe('a gateway that cannot refund its charge', () => {
  it('refunds to the mobile money wallet an operator gives, once, with the fee booked', async () => {
    const { saleId, total } = await owedSale();
    await refunds().tick();
    await refunds().tick();
    // A number does not fix its network: the refund waits for an operator.
    expect(await refunds().forSale(saleId)).toMatchObject({
      status: 'pending',
      method: 'mobile_money',
      provider: 'fake',
      destination: null,
    });
    await expect(refunds().sendTo(saleId, { ...wallet, network: 'glo' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    const sent = await refunds().sendTo(saleId, wallet);
    expect(sent).toMatchObject({
      status: 'succeeded',
      destination: {
        kind: 'mobile_money',
        network: 'mtn',
        number: '0245550101',
        name: 'Ama Mensah',
      },
    });
    expect(transfers.transfers.get(sent.reference)).toMatchObject({
      amountPesewas: total,
      calls: 1,
    });
    expect((await getSale(s, { sale_id: saleId })).body.data).toMatchObject({
      payment_status: 'refunded',
      refund: { status: 'succeeded', method: 'mobile_money' },
    });
    // Both journals are written in one transaction at one time: compared by kind, not by random id.
    const refundJournals = (await journals(p, saleId)).filter((j) =>
      j.kind.startsWith('sale_refund_'),
    );
    expect(refundJournals.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      {
        kind: 'sale_refund_fee',
        entries: {
          'transfer_clearing:fake': transfers.feePesewas,
          transfer_fees: -transfers.feePesewas,
        },
      },
      {
        kind: 'sale_refund_paid',
        entries: { 'transfer_clearing:fake': total, sale_refunds_payable: -total },
      },
    ]);
    await expect(refunds().sendTo(saleId, wallet)).rejects.toMatchObject({
      code: 'INVALID_TRANSITION',
    });
    await expectLedgerBalanced(p);
  });

  it('a transfer whose answer was lost is resolved by its status, never sent twice', async () => {
    const { saleId } = await owedSale();
    await refunds().tick();
    transfers.knobs.push('timeout_after_accept');
    expect(await refunds().sendTo(saleId, wallet)).toMatchObject({ status: 'processing' });
    await refunds().tick();
    expect((await refunds().forSale(saleId))!.status).toBe('processing');
    await age(saleId);
    await Promise.all([refunds().tick(), refunds().tick()]);
    const done = (await refunds().forSale(saleId))!;
    expect(done.status).toBe('succeeded');
    expect(transfers.transfers.get(done.reference)!.calls).toBe(1);
  });

  it('a failed transfer is retried under a new reference, the failed one never again', async () => {
    const { saleId } = await owedSale();
    await refunds().tick();
    transfers.knobs.push('fail');
    const failed = await refunds().sendTo(saleId, wallet);
    expect(failed).toMatchObject({ status: 'failed' });
    expect((await getSale(s, { sale_id: saleId })).body.data).toMatchObject({
      payment_status: 'refund_due',
      refund: { status: 'failed' },
    });
    const retried = await refunds().retry(saleId);
    expect(retried).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(retried.reference).not.toBe(failed!.reference);
    expect(transfers.transfers.get(failed!.reference)!.calls).toBe(1);
  });
});
