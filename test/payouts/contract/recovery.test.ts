import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTransfers, type SendKnob } from '../../fakes/transfers.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { listedPayouts, operatorPayout } from '../../helpers/payouts-read.ts';
import { expectBalanced, HOUR, payouts, settleSale, vendorPayee, runPayouts } from '../helpers.ts';

let p: TestPlatform;
const fake = new FakeTransfers();
let now = Date.parse('2026-03-02T09:00:00Z');
beforeAll(async () => {
  p = await startPlatform({
    socket: false,
    clock: () => now,
    transfers: fake,
    env: { PAYOUT_INTERVAL_MS: '0' },
  });
});
afterAll(() => p.close());

const db = () => p.app.platform.db;
const GRACE_MS = 60_000;
const statusOf = async (ids: string[]) =>
  Promise.all(ids.map(async (id) => (await operatorPayout(p, id)).status));

/** `n` payouts pending at the provider since long before `at`, each due for a check before anything else. */
async function longPending(n: number, at: number): Promise<string[]> {
  const runId = `prun_pending${n}`;
  await db().query(
    'insert into payout_runs (id, trigger, started_by, cutoff, created_at) values ($1, $2, $3, $4, $4)',
    [runId, 'manual', 'opr_bench', new Date(at)],
  );
  const rows = await db().query<{ id: string }>(
    `insert into payouts (id, run_id, payee, account, amount_pesewas, provider, destination, destination_version, status, created_by, attempts, sending_since, next_check_at, created_at, updated_at)
     select 'pout_pending' || lpad(g::text, 14, '0'), $1, 'vendor:ven_pending' || g, 'vendor_payable:ven_pending' || g, 1000, 'fake',
            '{"kind":"mobile_money","network":"mtn","number":"0241234567","name":"Kofi Boateng"}', 1, 'pending', 'opr_bench', 1, $2, $2, $2, $2
       from generate_series(1, $3::int) g returning id`,
    [runId, new Date(at), n],
  );
  for (const r of rows)
    fake.transfers.set(r.id, {
      amountPesewas: 1000,
      destination: {
        kind: 'mobile_money',
        network: 'mtn',
        number: '0241234567',
        name: 'Kofi Boateng',
      },
      state: 'pending',
      calls: 1,
    });
  return rows.map((r) => r.id);
}

describe('the recovery of open payouts', () => {
  it('asks a transfer that stays pending again after a growing wait, at most hourly, and applies its answer', async () => {
    const v = await vendorPayee(p);
    await settleSale(p, v.account, 4000, now - 30 * HOUR);
    fake.knobs.push('pending');
    await runPayouts(p);
    const [row] = await listedPayouts(p, { payee: `vendor:${v.id}` });
    const id = row!.id;
    // When the job next looks at it: bookkeeping the operator API leaves out, on the payouts face.
    const nextCheck = async () =>
      (await payouts(p).service.get(id)).payout as { next_check_at: Date; checks: number };
    expect((await nextCheck()).next_check_at.getTime()).toBe(now + GRACE_MS);
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      now = (await nextCheck()).next_check_at.getTime();
      await payouts(p).sender.recover();
      waits.push(((await nextCheck()).next_check_at.getTime() - now) / 1000);
    }
    // The grace (60 s) doubled at each look, capped at an hour.
    expect(waits).toEqual([60, 120, 240, 480, 960, 1920, 3600, 3600]);
    fake.settle(id, 'paid');
    now = (await nextCheck()).next_check_at.getTime() - 1000;
    await payouts(p).sender.recover();
    expect(await statusOf([id])).toEqual(['pending']); // not due yet
    now += 1000;
    await payouts(p).sender.recover();
    expect(await statusOf([id])).toEqual(['paid']);
    expect((await nextCheck()).next_check_at).toBeNull();
  });

  it('resends lost sends within two ticks however many transfers stay pending at the provider', async () => {
    const vendors = [];
    for (let i = 0; i < 5; i++) vendors.push(await vendorPayee(p));
    for (const v of vendors) await settleSale(p, v.account, 3000, now - 30 * HOUR);
    // Lost sends: a 5xx before the provider recorded anything leaves each in `sending`.
    fake.knobs.push(...Array<SendKnob>(5).fill('error_before'));
    expect((await runPayouts(p)).status).toBe(202);
    const lost = (await listedPayouts(p, { status: 'sending' })).map((r) => r.id);
    expect(lost).toHaveLength(5);
    for (const id of lost) expect(fake.transfers.has(id)).toBe(false);
    // 600 transfers pending at the provider for a day, every one due before the lost sends.
    const pending = await longPending(600, now - 24 * HOUR);

    const asked: string[] = [];
    const status = fake.status.bind(fake);
    fake.status = async (reference) => {
      asked.push(reference);
      return status(reference);
    };
    try {
      now += GRACE_MS + 1000;
      await payouts(p).service.tick();
      await payouts(p).service.tick();
    } finally {
      fake.status = status;
    }
    // Sent again under the same reference, once each, and paid.
    expect(await statusOf(lost)).toEqual(Array(5).fill('paid'));
    for (const id of lost) expect(fake.transfers.get(id)!.calls).toBe(1);
    // The pending ones were asked in bounded batches, and each at most once: the next look waits for the backoff.
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked.length).toBeLessThanOrEqual(lost.length + 2 * 200);
    expect(await statusOf(pending.slice(0, 3))).toEqual(['pending', 'pending', 'pending']);
    await expectBalanced(p);
  });
});
