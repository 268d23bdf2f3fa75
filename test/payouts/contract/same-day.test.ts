import { describe, expect, it, vi } from 'vitest';
import { shop } from '../../catalog/helpers.ts';
import { courierNear } from '../../dispatch/helpers.ts';
import { audited } from '../../helpers/audit.ts';
import { countRows, type PartnerSetup, type TestPlatform } from '../../helpers/harness.ts';
import { runsAfterHandover } from '../../helpers/payouts-read.ts';
import { operatorWithToken } from '../../operators/helpers.ts';
import { balanceOf, expectBalanced, HOUR, payouts } from '../helpers.ts';
import {
  cashHeld,
  deliveredBy,
  handover,
  payoutsOf,
  requestOf,
  scheduledVendor,
  useSameDayPlatform,
} from '../same-day-helpers.ts';

let p: TestPlatform;
let sp: PartnerSetup;
const { now, advance } = useSameDayPlatform((started) => ({ p, sp } = started));

describe('same-day vendors', () => {
  it('pays a same-day vendor after the courier hands its cod cash in, past the shorter hold, once; a daily vendor waits for the daily run', async () => {
    const fast = await scheduledVendor(p, 'same_day');
    const slow = await scheduledVendor(p, 'daily');
    const c = await courierNear(p, 1, now());
    const owed = await deliveredBy(p, sp, fast, c.id);
    await deliveredBy(p, sp, slow, c.id);
    expect((await p.admin('GET', `/payees/vendor/${fast.vendorId}`)).body).toMatchObject({
      schedule: 'same_day',
      available_pesewas: 0,
      pending_pesewas: owed,
    });

    // Handed in within the same-day hold: nothing is paid yet.
    advance(HOUR);
    await handover(p, c.id, 100);
    expect(await payoutsOf(p, fast.vendorId)).toEqual([]);

    // The courier brings the rest in the afternoon, past the hold: the vendor is paid at once.
    advance(4 * HOUR);
    const handoverId = await handover(p, c.id, await cashHeld(p, c.id));
    const paid = await payoutsOf(p, fast.vendorId);
    expect(paid).toEqual([
      expect.objectContaining({
        amount_pesewas: owed,
        status: 'paid',
        trigger: 'handover',
        handover_id: handoverId,
      }),
    ]);
    expect(await balanceOf(p, `vendor_payable:${fast.vendorId}`)).toBe(0);
    expect(await payoutsOf(p, slow.vendorId)).toEqual([]);
    // The handover's request is done, naming its run.
    const run = (await runsAfterHandover(p, handoverId))[0]!.id;
    expect(await requestOf(p, handoverId)).toMatchObject({
      attempts: 1,
      run_id: run,
      done_at: expect.any(Date),
    });

    // Exactly once: the same handover told again makes no second run or payout.
    const codVendorsOf = (orders: readonly string[]) =>
      p.app.platform.catalog!.operatorSales.codVendorsOf(orders);
    expect(
      await payouts(p).service.afterHandover(
        { id: handoverId, courierId: c.id, at: new Date(now()) },
        codVendorsOf,
      ),
    ).toBeUndefined();
    expect(await runsAfterHandover(p, handoverId)).toHaveLength(1);
    expect(await payoutsOf(p, fast.vendorId)).toHaveLength(1);
    await expectBalanced(p);
  });

  it('pays only the same-day vendors whose sales that courier delivered', async () => {
    const mine = await scheduledVendor(p, 'same_day');
    const other = await scheduledVendor(p, 'same_day');
    const a = await courierNear(p, 1, now());
    const b = await courierNear(p, 1, now());
    await deliveredBy(p, sp, mine, a.id);
    await deliveredBy(p, sp, other, b.id);
    advance(4 * HOUR);
    await handover(p, a.id, await cashHeld(p, a.id));
    expect(await payoutsOf(p, mine.vendorId)).toHaveLength(1);
    expect(await payoutsOf(p, other.vendorId)).toEqual([]);
  });

  it('sets the schedule for finance only, audited, refusing bad values and unknown vendors', async () => {
    const s = await shop(p);
    expect(
      (await p.admin('POST', `/payees/vendor/${s.vendorId}/schedule`, { schedule: 'hourly' }))
        .status,
    ).toBe(400);
    expect(
      (await p.admin('POST', '/payees/vendor/ven_missing/schedule', { schedule: 'same_day' })).body
        .code,
    ).toBe('PAYEE_NOT_FOUND');
    const support = await operatorWithToken(p, ['support']);
    expect(
      (
        await p.admin(
          'POST',
          `/payees/vendor/${s.vendorId}/schedule`,
          { schedule: 'same_day' },
          support.token,
        )
      ).status,
    ).toBe(403);
    expect((await p.admin('GET', `/payees/vendor/${s.vendorId}`)).body.schedule).toBe('daily');
    expect(
      (await p.admin('POST', `/payees/vendor/${s.vendorId}/schedule`, { schedule: 'same_day' }))
        .status,
    ).toBe(200);
    expect(
      (await audited(p, { action: 'payout_schedule.set', target_id: s.vendorId })).length,
    ).toBe(1);
  });

  it('keeps the handover and its request when the run after it fails; the payouts job runs it again, with a backoff', async () => {
    const v = await scheduledVendor(p, 'same_day');
    const c = await courierNear(p, 1, now());
    const owed = await deliveredBy(p, sp, v, c.id);
    advance(4 * HOUR);
    const failing = vi
      .spyOn(payouts(p).service, 'afterHandover')
      .mockRejectedValueOnce(new Error('the payouts side is down'));
    const handoverId = await handover(p, c.id, await cashHeld(p, c.id));
    failing.mockRestore();
    expect(await cashHeld(p, c.id)).toBe(0);
    expect(await payoutsOf(p, v.vendorId)).toEqual([]);
    expect(await requestOf(p, handoverId)).toMatchObject({
      attempts: 1,
      done_at: null,
      last_error: 'the payouts side is down',
    });
    // Not before its next attempt (the sending grace after the failure), then once.
    expect(await payouts(p).runRequests.runDue()).toBe(0);
    advance(61_000);
    expect(await payouts(p).runRequests.runDue()).toBe(1);
    expect(await payoutsOf(p, v.vendorId)).toEqual([
      expect.objectContaining({ amount_pesewas: owed, status: 'paid', handover_id: handoverId }),
    ]);
    expect(await requestOf(p, handoverId)).toMatchObject({
      attempts: 2,
      done_at: expect.any(Date),
      last_error: null,
    });
    expect(await payouts(p).runRequests.runDue()).toBe(0);
    await expectBalanced(p);
  });

  it('refuses the handover when its request cannot be written: no handover without its same-day run', async () => {
    const v = await scheduledVendor(p, 'same_day');
    const c = await courierNear(p, 1, now());
    await deliveredBy(p, sp, v, c.id);
    const held = await cashHeld(p, c.id);
    const failing = vi
      .spyOn(payouts(p).runRequests, 'request')
      .mockRejectedValueOnce(new Error('the request table is gone'));
    const r = await p.admin('POST', `/cash/couriers/${c.id}/handovers`, { amount_pesewas: held });
    failing.mockRestore();
    expect(r.status).toBe(500);
    expect(await cashHeld(p, c.id)).toBe(held);
    expect(
      await countRows(
        p,
        'select count(*)::int as n from courier_cash_handovers where courier_id = $1',
        [c.id],
      ),
    ).toBe(0);
    await expectBalanced(p);
  });
});
