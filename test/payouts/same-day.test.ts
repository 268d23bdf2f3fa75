import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getSale, orderBody, placed, salesPartner, shop } from '../catalog/helpers.ts';
import { courierNear, toDropoff } from '../dispatch/helpers.ts';
import { FakeTransfers } from '../fakes/transfers.ts';
import { countRows, startPlatform, type PartnerSetup, type TestPlatform } from '../helpers/harness.ts';
import { operatorWithToken } from '../operators/helpers.ts';
import { balanceOf, expectBalanced, HOUR, payouts, setDestination } from './helpers.ts';

let p: TestPlatform;
let sp: PartnerSetup;
const fake = new FakeTransfers();
// The partner API checks signatures against the clock, so it runs near real time; `later` moves it on.
let later = 0;
const now = () => Date.now() + later;
beforeEach(() => {
  later = 0;
});
beforeAll(async () => {
  p = await startPlatform({ clock: now, transfers: fake, env: { PAYOUT_INTERVAL_MS: '0', PAYOUT_SAME_DAY_HOLD_HOURS: '2' } });
  sp = await salesPartner(p);
});
afterAll(() => p.close());

/** A vendor with a destination out of its cooling period, on `schedule`. */
async function vendor(schedule: 'daily' | 'same_day') {
  const s = await shop(p);
  await setDestination(p, 'vendor', s.vendorId, { kind: 'mobile_money', network: 'mtn', number: '024 555 0101', name: 'Kofi Boateng' });
  await p.app.platform.db.query("update payout_destinations set changed_at = changed_at - interval '30 days' where payee = $1", [`vendor:${s.vendorId}`]);
  const set = await p.admin('POST', `/payees/vendor/${s.vendorId}/schedule`, { schedule });
  expect(set.status).toBe(200);
  return s;
}

/** A cod sale of the vendor's delivered (and its cash collected) by the courier, now. */
async function deliveredBy(s: Awaited<ReturnType<typeof shop>>, courierId: string): Promise<number> {
  const sale = await placed(sp, orderBody(s));
  const orderId = (await getSale(sp, { sale_id: sale.sale_id })).body.data.delivery.order_id as string;
  await toDropoff(p, orderId, courierId);
  await p.app.platform.dispatch!.service.delivered(courierId, orderId, `d-${orderId}`);
  return balanceOf(p, `vendor_payable:${s.vendorId}`);
}

async function handover(courierId: string, amount: number): Promise<string> {
  const r = await p.admin('POST', `/cash/couriers/${courierId}/handovers`, { amount_pesewas: amount });
  expect(r.status).toBe(201);
  await p.app.platform.cash!.settled();
  return r.body.handover.id as string;
}

const payoutsOf = (vendorId: string) =>
  p.app.platform.db.query<{ id: string; amount_pesewas: number; status: string; trigger: string; handover_id: string | null }>(
    'select p.id, p.amount_pesewas, p.status, r.trigger, r.handover_id from payouts p join payout_runs r on r.id = p.run_id where p.payee = $1 order by p.created_at',
    [`vendor:${vendorId}`],
  );

describe('same-day vendors', () => {
  it('pays a same-day vendor after the courier hands its cod cash in, past the shorter hold, once; a daily vendor waits for the daily run', async () => {
    const fast = await vendor('same_day');
    const slow = await vendor('daily');
    const c = await courierNear(p, 1, now());
    const owed = await deliveredBy(fast, c.id);
    await deliveredBy(slow, c.id);
    expect((await p.admin('GET', `/payees/vendor/${fast.vendorId}`)).body).toMatchObject({ schedule: 'same_day', available_pesewas: 0, pending_pesewas: owed });

    // Handed in within the same-day hold: nothing is paid yet.
    later += HOUR;
    await handover(c.id, 100);
    expect(await payoutsOf(fast.vendorId)).toEqual([]);

    // The courier brings the rest in the afternoon, past the hold: the vendor is paid at once.
    later += 4 * HOUR;
    const held = Number((await p.admin('GET', `/cash/couriers/${c.id}`)).body.balance_pesewas);
    const handoverId = await handover(c.id, held);
    const paid = await payoutsOf(fast.vendorId);
    expect(paid).toEqual([expect.objectContaining({ amount_pesewas: owed, status: 'paid', trigger: 'handover', handover_id: handoverId })]);
    expect(await balanceOf(p, `vendor_payable:${fast.vendorId}`)).toBe(0);
    expect(await payoutsOf(slow.vendorId)).toEqual([]);

    // Exactly once: the same handover told again makes no second run or payout.
    const codVendorsOf = (orders: readonly string[]) => p.app.platform.catalog!.operatorSales.codVendorsOf(orders);
    expect(await payouts(p).service.afterHandover({ id: handoverId, courierId: c.id, at: new Date(now()) }, codVendorsOf)).toBeUndefined();
    expect(await countRows(p, 'select count(*)::int as n from payout_runs where handover_id = $1', [handoverId])).toBe(1);
    expect(await payoutsOf(fast.vendorId)).toHaveLength(1);
    await expectBalanced(p);
  });

  it('pays only the same-day vendors whose sales that courier delivered', async () => {
    const mine = await vendor('same_day');
    const other = await vendor('same_day');
    const a = await courierNear(p, 1, now());
    const b = await courierNear(p, 1, now());
    await deliveredBy(mine, a.id);
    await deliveredBy(other, b.id);
    later += 4 * HOUR;
    await handover(a.id, Number((await p.admin('GET', `/cash/couriers/${a.id}`)).body.balance_pesewas));
    expect(await payoutsOf(mine.vendorId)).toHaveLength(1);
    expect(await payoutsOf(other.vendorId)).toEqual([]);
  });

  it('sets the schedule for finance only, audited, refusing bad values and unknown vendors', async () => {
    const s = await shop(p);
    expect((await p.admin('POST', `/payees/vendor/${s.vendorId}/schedule`, { schedule: 'hourly' })).status).toBe(400);
    expect((await p.admin('POST', '/payees/vendor/ven_missing/schedule', { schedule: 'same_day' })).body.code).toBe('PAYEE_NOT_FOUND');
    const support = await operatorWithToken(p, ['support']);
    expect((await p.admin('POST', `/payees/vendor/${s.vendorId}/schedule`, { schedule: 'same_day' }, support.token)).status).toBe(403);
    expect((await p.admin('GET', `/payees/vendor/${s.vendorId}`)).body.schedule).toBe('daily');
    expect((await p.admin('POST', `/payees/vendor/${s.vendorId}/schedule`, { schedule: 'same_day' })).status).toBe(200);
    expect(await countRows(p, "select count(*)::int as n from audit_log where action = 'payout_schedule.set' and target_id = $1", [s.vendorId])).toBe(1);
  });

  // Last: the failing listener stays registered on this platform.
  it('keeps the handover when what follows it fails (logged; the daily run pays instead)', async () => {
    const v = await vendor('same_day');
    const c = await courierNear(p, 1, now());
    await deliveredBy(v, c.id);
    p.app.platform.cash!.onHandover(() => Promise.reject(new Error('the payouts side is down')));
    const held = Number((await p.admin('GET', `/cash/couriers/${c.id}`)).body.balance_pesewas);
    await handover(c.id, held);
    expect((await p.admin('GET', `/cash/couriers/${c.id}`)).body.balance_pesewas).toBe(0);
  });
});
