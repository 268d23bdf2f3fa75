import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayoutsModule, type PayoutsModule } from '../../../src/modules/payouts/index.ts';
import { FakeTransfers, type SendKnob } from '../../fakes/transfers.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { listedPayouts, operatorPayout } from '../../helpers/payouts-read.ts';
import { payeeDirectory } from '../../../src/flows/payouts-find-payees.ts';
import { balanceOf, expectBalanced, HOUR, settleSale, vendorPayee } from '../helpers.ts';

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

/** A fresh instance of the module on the same database and provider: the process after a restart. */
const restarted = (): PayoutsModule =>
  createPayoutsModule({
    db: p.app.platform.db,
    clock: () => now,
    log: p.app.log,
    provider: fake,
    settings: p.app.platform.config.payouts,
    directory: payeeDirectory(p.app.platform.accounts, p.app.platform.catalog?.catalog),
  });

const statuses = async (ids: string[]) =>
  Promise.all(ids.map(async (id) => (await operatorPayout(p, id)).status));

/**
 * Six payees; the first sends of the run meet `knob`. Where the knob makes the call hang, the run
 * never finishes: the process is taken as killed there, with every send slot (4) stuck in `sending`
 * and the other payouts still `created`. After the sending grace a restarted instance recovers them all.
 */
async function crashAndRecover(knob: SendKnob): Promise<void> {
  const vendors = [];
  for (let i = 0; i < 6; i++) vendors.push(await vendorPayee(p));
  for (const [i, v] of vendors.entries()) await settleSale(p, v.account, 2000 + i, now - 30 * HOUR);
  const hangs = knob.startsWith('hang');
  fake.knobs.push(...Array<SendKnob>(hangs ? 4 : 1).fill(knob));
  const first = restarted();
  const ran = first.service.run('manual', 'opr_maker');
  // A hanging call is the process dying mid-call: nothing after it runs, and nobody waits for it.
  if (!hangs) await ran;
  const payee = vendors.map((v) => `vendor:${v.id}`);
  const open = async () => {
    const n = new Map<string, number>();
    for (const one of payee)
      for (const { status } of await listedPayouts(p, { payee: one }))
        n.set(status, (n.get(status) ?? 0) + 1);
    return [...n.keys()].sort().map((status) => `${status}:${n.get(status)}`);
  };
  await expect
    .poll(open, { timeout: 10_000 })
    .toEqual(hangs ? ['created:2', 'sending:4'] : ['paid:5', 'sending:1']);
  // In the payees' order, to match each payout with its amount.
  const ids = [];
  for (const v of vendors) ids.push((await listedPayouts(p, { payee: `vendor:${v.id}` }))[0]!.id);
  now += 61_000;
  await restarted().sender.recover();
  await restarted().sender.recover();
  expect(await statuses(ids)).toEqual(Array(6).fill('paid'));
  // Exactly once: one transfer per payout at the provider, each for its amount; every payable at zero.
  for (const [i, v] of vendors.entries()) {
    const id = ids[i]!;
    expect(fake.transfers.get(id)?.amountPesewas).toBe(2000 + i);
    expect(await balanceOf(p, v.account)).toBe(0);
  }
  expect(await balanceOf(p, 'payouts_in_transit')).toBe(0);
  await expectBalanced(p);
}

describe('exactly once across crashes and provider failures', () => {
  it('a timeout after the provider accepted: resolved by its status, never sent twice', () =>
    crashAndRecover('timeout_after_accept'));
  it('a 5xx before the provider recorded it: sent again under the same reference', () =>
    crashAndRecover('error_before'));
  it('killed during the calls, after the provider accepted them; the rest of the run unsent', () =>
    crashAndRecover('hang_after_accept'));
  it('killed during the calls, before the provider recorded them; the rest of the run unsent', () =>
    crashAndRecover('hang_before'));

  it('leaves a payout whose status cannot be asked in sending, and changes nothing until it can', async () => {
    const v = await vendorPayee(p);
    await settleSale(p, v.account, 4100, now - 30 * HOUR);
    fake.knobs.push('timeout_after_accept');
    await restarted().service.run('manual', 'opr_maker');
    const [row] = await listedPayouts(p, { payee: `vendor:${v.id}` });
    expect(row!.status).toBe('sending');
    const status = fake.status.bind(fake);
    fake.status = async () => Promise.reject(new Error('provider down'));
    now += 61_000;
    await restarted().sender.recover();
    expect(await statuses([row!.id])).toEqual(['sending']);
    fake.status = status;
    // Asked again at its next check: the grace after the failed look.
    await restarted().sender.recover();
    expect(await statuses([row!.id])).toEqual(['sending']);
    now += 61_000;
    await restarted().sender.recover();
    expect(await statuses([row!.id])).toEqual(['paid']);
    expect(fake.transfers.get(row!.id)!.calls).toBe(1);
    await expectBalanced(p);
  });
});
