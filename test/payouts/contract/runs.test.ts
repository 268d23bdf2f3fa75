import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PaystackTransfers,
  toPaystackReference,
} from '../../../src/integrations/transfers/paystack.ts';
import { startFakePaystack, type FakePaystack } from '../../fakes/paystack.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { listedPayouts } from '../../helpers/payouts-read.ts';
import {
  balanceOf,
  expectBalanced,
  HOUR,
  payouts,
  runPayouts,
  settleSale,
  vendorPayee,
} from '../helpers.ts';

let p: TestPlatform;
let fake: FakePaystack;
let now = Date.parse('2026-03-02T09:00:00Z');
beforeAll(async () => {
  fake = await startFakePaystack();
  p = await startPlatform({
    socket: false,
    clock: () => now,
    transfers: new PaystackTransfers({
      secretKey: fake.secretKey,
      baseUrl: fake.url,
      timeoutMs: 1500,
    }),
    // Bulk transfers of two, so that a run of three makes two requests.
    env: { PAYOUT_INTERVAL_MS: '0', PAYOUT_BULK_SIZE: '2', PAYOUT_BULK_INTERVAL_MS: '0' },
  });
});
afterAll(async () => {
  await p.close();
  await fake.close();
});

const bulkRequests = () =>
  fake.requests
    .filter((r) => r.method === 'POST' && r.path === '/transfer/bulk')
    .map(
      (r) =>
        JSON.parse(r.body).transfers as Array<{
          reference: string;
          recipient: string;
          amount: number;
        }>,
    );
const statusOf = async (payee: string) => (await listedPayouts(p, { payee }))[0]!;

/** A vendor owed `amount` past the hold, paid to the wallet `number` (registered under the vendor's name at Paystack). */
async function owed(number: string, amount: number) {
  fake.accountNames.set(`MTN:${number}`, 'Kofi Boateng');
  const v = await vendorPayee(p, number);
  await settleSale(p, v.account, amount, now - 30 * HOUR);
  return { ...v, payee: `vendor:${v.id}` };
}

describe('a payout run at provider speed', () => {
  it('is answered at once with its id; the worker sends bulk transfers and applies each item (one failed); progress counts them', async () => {
    const refusing = '0241110099';
    fake.refusingAccounts.add(`MTN:${refusing}`);
    const vendors = [
      await owed('0241110001', 2000),
      await owed('0241110002', 3000),
      await owed(refusing, 4000),
    ];
    const before = bulkRequests().length;
    // The provider holds the run's first bulk request: the operator's answer does not wait for it.
    fake.hold('timeout', '/transfer/bulk', 1);
    const started = await p.admin('POST', '/payouts/runs');
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      run_id: expect.stringMatching(/^prun_[0-9A-Z]{26}$/),
      status: 'creating',
    });
    fake.release();
    await payouts(p).service.settle();
    const run = (await p.admin('GET', `/payouts/runs/${started.body.run_id}`)).body;
    expect(run).toMatchObject({
      status: 'done',
      created: 3,
      sent: 3,
      paid: 0,
      failed: 1,
      pending: 2,
      awaiting_approval: 0,
    });
    // Two requests of at most two transfers, naming the recipients verified with the destinations (none registered again).
    const sent = bulkRequests().slice(before);
    // Sent at once under the concurrency: they may reach the provider in either order.
    expect(sent.map((b) => b.length).sort()).toEqual([1, 2]);
    expect(sent.flat().every((t) => t.recipient.startsWith('RCP_'))).toBe(true);
    const failed = await statusOf(vendors[2]!.payee);
    expect(failed).toMatchObject({
      status: 'failed',
      failure_reason: 'Account blocked by the receiving institution',
    });
    // The failed payout's money is owed to its payee again; the others are in transit until Paystack settles them.
    expect(await balanceOf(p, vendors[2]!.account)).toBe(4000);
    for (const v of vendors.slice(0, 2))
      fake.settleTransfer(toPaystackReference((await statusOf(v.payee)).id), 'success');
    now += 61_000;
    await payouts(p).sender.recover();
    expect((await p.admin('GET', `/payouts/runs/${started.body.run_id}`)).body).toMatchObject({
      paid: 2,
      failed: 1,
      pending: 0,
    });
    for (const v of vendors.slice(0, 2)) expect(await balanceOf(p, v.account)).toBe(0);
    await expectBalanced(p);
    fake.refusingAccounts.clear();
  });

  it('sends a rate-limited bulk transfer again after the Retry-After, under the same references, once', async () => {
    const v = await owed('0241110003', 2500);
    const before = bulkRequests().length;
    fake.retryAfterSeconds = 1;
    fake.failNext('429', '/transfer/bulk');
    const t0 = Date.now();
    const run = await runPayouts(p);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(run.body.status).toBe('done');
    const { id, status } = await statusOf(v.payee);
    expect(status).toBe('pending');
    // The refused request and the one taken both name it; the provider holds one transfer.
    expect(
      bulkRequests()
        .slice(before)
        .filter((b) => b.some((t) => t.reference === toPaystackReference(id))),
    ).toHaveLength(2);
    expect(fake.transfers.get(toPaystackReference(id))?.amount).toBe(2500);
    fake.retryAfterSeconds = undefined;
  });

  it('leaves a bulk transfer whose answer never came in sending; the recovery asks each by reference and sends only what Paystack never got', async () => {
    const v = await owed('0241110004', 2600);
    fake.hold('timeout', '/transfer/bulk');
    const run = await runPayouts(p);
    fake.release();
    expect(run.body.status).toBe('done');
    const { id } = await statusOf(v.payee);
    expect((await statusOf(v.payee)).status).toBe('sending');
    expect(fake.transfers.has(toPaystackReference(id))).toBe(false);
    now += 61_000;
    await payouts(p).sender.recover();
    expect((await statusOf(v.payee)).status).toBe('pending');
    expect(fake.transfers.get(toPaystackReference(id))?.amount).toBe(2600);
  });

  it('answers 400 for a malformed run id and 404 PAYOUT_RUN_NOT_FOUND for an unknown one, changing nothing', async () => {
    const runs = (await p.admin('GET', '/payouts/runs')).body.data.length;
    const bad = await p.admin('GET', '/payouts/runs/not%20an%20id');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBeTypeOf('string');
    const unknown = await p.admin('GET', '/payouts/runs/prun_01J00000000000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('PAYOUT_RUN_NOT_FOUND');
    expect((await p.admin('GET', '/payouts/runs')).body.data.length).toBe(runs);
  });
});
