import { describe, expect, it, vi } from 'vitest';
import { createPayoutsModule, type PayoutsModule } from '../../../src/modules/payouts/index.ts';
import { RunSender } from '../../../src/modules/payouts/run-sender.ts';
import { payeeDirectory } from '../../../src/flows/payouts-find-payees.ts';
import { courierNear } from '../../dispatch/helpers.ts';
import type { PartnerSetup, TestPlatform } from '../../helpers/harness.ts';
import { runsAfterHandover } from '../../helpers/payouts-read.ts';
import { balanceOf, expectBalanced, HOUR, payouts } from '../helpers.ts';
import {
  cashHeld,
  deliveredBy,
  payoutsOf,
  requestOf,
  scheduledVendor,
  useSameDayPlatform,
} from '../same-day-helpers.ts';

let p: TestPlatform;
let sp: PartnerSetup;
const { fake, now, advance } = useSameDayPlatform((started) => ({ p, sp } = started));

/** A fresh instance of the module on the same database and provider: the process after a restart. */
const restarted = (): PayoutsModule =>
  createPayoutsModule({
    db: p.app.platform.db,
    clock: now,
    log: p.app.log,
    provider: fake,
    settings: p.app.platform.config.payouts,
    directory: payeeDirectory(p.app.platform.accounts, p.app.platform.catalog?.catalog),
    codVendorsOf: (orders) => p.app.platform.catalog!.operatorSales.codVendorsOf(orders),
  });

/**
 * A same-day vendor is owed; the courier hands the cash in. The process dies at `step` of the run the
 * handover asked for (the call there never returns: nothing after it runs). A restarted instance's job
 * runs the request once its lease has passed: the vendor is paid once, the books balanced.
 */
async function crashAndRecover(step: 'before the run' | 'before sending'): Promise<void> {
  const v = await scheduledVendor(p, 'same_day');
  const c = await courierNear(p, 1, now());
  const owed = await deliveredBy(p, sp, v, c.id);
  advance(4 * HOUR);
  const first = payouts(p);
  let die!: (err: Error) => void;
  const dead = new Promise<never>((_, reject) => (die = reject));
  const hang =
    step === 'before the run'
      ? vi.spyOn(first.service, 'afterHandover').mockReturnValueOnce(dead)
      : vi.spyOn(RunSender.prototype, 'sendRun').mockReturnValueOnce(dead);
  const r = await p.admin('POST', `/cash/couriers/${c.id}/handovers`, {
    amount_pesewas: await cashHeld(p, c.id),
  });
  expect(r.status).toBe(201);
  const handoverId = r.body.handover.id as string;
  await expect.poll(() => hang.mock.calls.length).toBe(1);
  hang.mockRestore();

  // What the kill left: the handover and its request (leased by the dead process), and no run, or a run whose payouts were never sent.
  expect(await cashHeld(p, c.id)).toBe(0);
  expect(await requestOf(p, handoverId)).toMatchObject({ attempts: 1, done_at: null });
  expect(await payoutsOf(p, v.vendorId)).toEqual(
    step === 'before the run'
      ? []
      : [expect.objectContaining({ status: 'created', handover_id: handoverId })],
  );
  expect(fake.transfers.size).toBe(0);

  const second = restarted();
  // Leased by the dead process: not before the lease has passed.
  expect(await second.runRequests.runDue()).toBe(0);
  advance(61_000);
  expect(await second.runRequests.runDue()).toBe(1);
  // A run made before the kill is the recovery's to send.
  await second.sender.recover();
  const paid = await payoutsOf(p, v.vendorId);
  expect(paid).toEqual([
    expect.objectContaining({ amount_pesewas: owed, status: 'paid', handover_id: handoverId }),
  ]);
  expect(fake.transfers.get(paid[0]!.id)).toMatchObject({ amountPesewas: owed, calls: 1 });
  const runs = await runsAfterHandover(p, handoverId);
  expect(runs).toHaveLength(1);
  const run = runs[0]!.id;
  expect(await requestOf(p, handoverId)).toMatchObject({
    attempts: 2,
    done_at: expect.any(Date),
    run_id: run,
  });

  // The dead process's call returning late changes nothing: the request stays done.
  die(new Error('killed'));
  await first.runRequests.settled();
  expect(await requestOf(p, handoverId)).toMatchObject({ done_at: expect.any(Date), run_id: run });
  expect(await second.runRequests.runDue()).toBe(0);
  expect(await balanceOf(p, `vendor_payable:${v.vendorId}`)).toBe(0);
  expect(await balanceOf(p, 'payouts_in_transit')).toBe(0);
  await expectBalanced(p);
  fake.transfers.clear();
}

describe('the same-day run after a handover across a crash', () => {
  it('killed after the handover committed, before its run started: the restarted job makes the run and pays once', () =>
    crashAndRecover('before the run'));
  it('killed after the run made its payouts, before sending them: the request is done, the payouts sent once', () =>
    crashAndRecover('before sending'));
});
