import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { getSale, orderBody, placed, salesPartner, shop } from '../catalog/helpers.ts';
import { toDropoff } from '../dispatch/helpers.ts';
import { FakeTransfers } from '../fakes/transfers.ts';
import { startPlatform, type PartnerSetup, type TestPlatform } from '../helpers/harness.ts';
import { listedPayouts } from '../helpers/payouts-read.ts';
import { balanceOf, payouts, setDestination } from './helpers.ts';

export type Shop = Awaited<ReturnType<typeof shop>>;

/** Starts, for the file, a platform on a clock `advance` moves on (back to real time before each test), paying through a fake provider with a 2-hour same-day hold, and a sales partner; `started` is handed both. */
export function useSameDayPlatform(started: (s: { p: TestPlatform; sp: PartnerSetup }) => void): {
  fake: FakeTransfers;
  now: () => number;
  advance: (ms: number) => void;
} {
  let p: TestPlatform | undefined;
  const fake = new FakeTransfers();
  // The partner API checks signatures against the clock, so it runs near real time; `advance` moves it on.
  let later = 0;
  const now = () => Date.now() + later;
  beforeEach(() => {
    later = 0;
  });
  beforeAll(async () => {
    p = await startPlatform({
      socket: false,
      clock: now,
      transfers: fake,
      env: { PAYOUT_INTERVAL_MS: '0', PAYOUT_SAME_DAY_HOLD_HOURS: '2' },
    });
    started({ p, sp: await salesPartner(p) });
  });
  afterAll(() => p?.close());
  return {
    fake,
    now,
    advance: (ms) => {
      later += ms;
    },
  };
}

/** A vendor with a destination out of its cooling period, on `schedule`. */
export async function scheduledVendor(
  p: TestPlatform,
  schedule: 'daily' | 'same_day',
): Promise<Shop> {
  const s = await shop(p);
  await setDestination(p, 'vendor', s.vendorId, {
    kind: 'mobile_money',
    network: 'mtn',
    number: '024 555 0101',
    name: 'Kofi Boateng',
  });
  await p.app.platform.db.query(
    "update payout_destinations set changed_at = changed_at - interval '30 days' where payee = $1",
    [`vendor:${s.vendorId}`],
  );
  const set = await p.admin('POST', `/payees/vendor/${s.vendorId}/schedule`, { schedule });
  expect(set.status).toBe(200);
  return s;
}

/** A cod sale of the vendor's delivered (and its cash collected) by the courier, now: answers the vendor's payable. */
export async function deliveredBy(
  p: TestPlatform,
  sp: PartnerSetup,
  s: Shop,
  courierId: string,
): Promise<number> {
  const sale = await placed(sp, orderBody(s));
  const orderId = (await getSale(sp, { sale_id: sale.sale_id })).body.data.delivery
    .order_id as string;
  await toDropoff(p, orderId, courierId);
  await p.app.platform.dispatch!.service.delivered(courierId, orderId);
  return balanceOf(p, `vendor_payable:${s.vendorId}`);
}

/** What the courier holds in cash. */
export const cashHeld = async (p: TestPlatform, courierId: string): Promise<number> =>
  Number((await p.admin('GET', `/cash/couriers/${courierId}`)).body.balance_pesewas);

/** An operator records the courier's handover; answers its id once the same-day run it asked for has finished. */
export async function handover(
  p: TestPlatform,
  courierId: string,
  amount: number,
): Promise<string> {
  const r = await p.admin('POST', `/cash/couriers/${courierId}/handovers`, {
    amount_pesewas: amount,
  });
  expect(r.status).toBe(201);
  await payouts(p).runRequests.settled();
  return r.body.handover.id as string;
}

/**
 * A vendor's payouts, oldest first, with the run each belongs to: the payouts as operators list
 * them, each run's trigger and handover through the payouts module's face (which names handovers).
 */
export async function payoutsOf(p: TestPlatform, vendorId: string) {
  const listed = (await listedPayouts(p, { payee: `vendor:${vendorId}` })).reverse();
  if (listed.length === 0) return [];
  const runs = new Map((await p.app.platform.payouts.service.runs(1000)).map((r) => [r.id, r]));
  if (runs.size >= 1000) throw new Error('more payout runs than one read shows');
  return listed.map(({ id, amount_pesewas, status, run_id }) => {
    const run = runs.get(run_id);
    if (!run) throw new Error(`payout ${id}: no run ${run_id} shown`);
    return {
      id,
      amount_pesewas: amount_pesewas as number,
      status,
      trigger: run.trigger,
      handover_id: run.handover_id,
    };
  });
}

/** The same-day run request a handover wrote, as the payouts job sees it (the payouts face). */
export const requestOf = (p: TestPlatform, handoverId: string) =>
  payouts(p).runRequests.find(handoverId);
