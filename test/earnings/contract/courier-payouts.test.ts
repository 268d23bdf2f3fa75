import { describe, expect, it } from 'vitest';
import { FakeTransfers } from '../../fakes/transfers.ts';
import type { TestPlatform } from '../../helpers/harness.ts';
import { textsTo } from '../../helpers/outbox-read.ts';
import { listedPayouts } from '../../helpers/payouts-read.ts';
import { newPhone } from '../../helpers/courier.ts';
import {
  balanceOf,
  expectBalanced,
  HOUR,
  runPayouts,
  setDestination,
} from '../../payouts/helpers.ts';
import { usePayoutsPlatform } from '../../payouts/platform.ts';

let p: TestPlatform;
const fake = new FakeTransfers();
let now = Date.parse('2026-03-02T09:00:00Z');
usePayoutsPlatform(
  () => now,
  fake,
  (started) => (p = started),
);

/** A courier who earned one delivery's pay 30 hours ago (past the payout hold). */
async function courierWhoEarned(): Promise<{
  id: string;
  phone: string;
  earned: number;
  orderId: string;
}> {
  const courier = await p.app.platform.couriers.create({
    name: 'Yaw Darko',
    phone: newPhone(),
    vehicle: 'motorbike',
  });
  const t0 = now;
  now = t0 - 30 * HOUR;
  try {
    const rule = await p.admin('POST', '/courier-pay/rules', {
      zone: 'default',
      vehicle: 'motorbike',
      base_pesewas: 1500,
      per_km_pesewas: 200,
      per_failed_attempt_pesewas: 500,
    });
    expect(rule.status).toBe(201);
    const earning = await p.app.platform.db.transaction((tx) =>
      p.app.platform.earnings.book(tx, {
        orderId: `dlv_for_${courier.id}`,
        courierId: courier.id,
        occasion: 'delivered',
        zone: null,
        vehicle: 'motorbike',
        roadKm: 5,
      }),
    );
    return {
      id: courier.id,
      phone: courier.phone,
      earned: earning!.amount_pesewas,
      orderId: `dlv_for_${courier.id}`,
    };
  } finally {
    now = t0;
  }
}

describe('couriers paid out as payees of the payouts module', () => {
  it('refuses a bank account, an unknown courier and hostile kinds; a proposal alone changes nothing', async () => {
    const { id } = await courierWhoEarned();
    const bank = await p.admin('POST', `/payees/courier/${id}/destination`, {
      kind: 'bank',
      bank_code: '280100',
      account_number: '1234567890',
      name: 'Yaw Darko',
    });
    expect([bank.status, bank.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    const unknown = await p.admin(
      'POST',
      '/payees/courier/cou_01M8K2P0S4WKP5Z2K415DHWD0T/destination',
      {
        kind: 'mobile_money',
        network: 'mtn',
        number: '024 123 4567',
        name: 'Yaw Darko',
      },
    );
    expect([unknown.status, unknown.body.code]).toEqual([404, 'PAYEE_NOT_FOUND']);
    for (const kind of ['rider', 'courier%27', '../courier']) {
      const status = (await p.admin('GET', `/payees/${kind}/${id}`)).status;
      expect([400, 404], kind).toContain(status);
    }
    const proposed = await p.admin('POST', `/payees/courier/${id}/destination`, {
      kind: 'mobile_money',
      network: 'mtn',
      number: '024 555 0101',
      name: 'Yaw Darko',
    });
    expect(proposed.status).toBe(202);
    expect((await p.admin('GET', `/payees/courier/${id}`)).body.destination).toBeNull();
  });

  it("pays a courier's earnings to their verified wallet once, after a second operator's approval, the books balanced", async () => {
    const { id, phone, earned } = await courierWhoEarned();
    expect(await balanceOf(p, `courier_payable:${id}`)).toBe(earned);
    await setDestination(p, 'courier', id, {
      kind: 'mobile_money',
      network: 'mtn',
      number: '024 555 0202',
      name: 'Yaw Darko',
    });
    // The courier is told on their own phone, the new wallet shown by its last digits only.
    const told = await textsTo(p, phone);
    expect(told.map((t) => t.body)).toEqual([expect.stringContaining('•••202')]);
    expect(told[0]!.body).not.toContain('0245550202');
    // Out of the cooling period that holds payouts to a destination changed lately.
    await p.app.platform.db.query(
      "update payout_destinations set changed_at = changed_at - interval '30 days' where payee = $1",
      [`courier:${id}`],
    );
    expect((await p.admin('GET', `/payees/courier/${id}`)).body).toMatchObject({
      available_pesewas: earned,
      destination: { verification: 'verified' },
    });
    const first = await runPayouts(p);
    const paid = (await p.admin('GET', `/payouts?run_id=${first.body.run_id}&payee=courier:${id}`))
      .body.data[0];
    expect(paid).toMatchObject({ amount_pesewas: earned, status: 'paid' });
    expect(fake.sends.filter((s) => s.reference === paid.id)).toHaveLength(1);
    expect(await balanceOf(p, `courier_payable:${id}`)).toBe(0);

    const second = await runPayouts(p);
    expect(
      (await p.admin('GET', `/payouts?run_id=${second.body.run_id}&payee=courier:${id}`)).body.data,
    ).toEqual([]);
    expect(await listedPayouts(p, { payee: `courier:${id}` })).toHaveLength(1);
    await expectBalanced(p);
    expect(
      Number(
        (
          await p.app.platform.db.query<{ n: string }>(
            'select coalesce(sum(amount_pesewas), 0)::text as n from ledger_entries',
          )
        )[0]!.n,
      ),
    ).toBe(0);
  });

  it('holds the pay for a delivery a photo proved until the recipient confirms it or an operator accepts it', async () => {
    const { id, earned, orderId } = await courierWhoEarned();
    await setDestination(p, 'courier', id, {
      kind: 'mobile_money',
      network: 'mtn',
      number: '024 555 0303',
      name: 'Yaw Darko',
    });
    await p.app.platform.db.query(
      "update payout_destinations set changed_at = changed_at - interval '30 days' where payee = $1",
      [`courier:${id}`],
    );
    // The courier proved the delivery with a photo at the drop-off: the recipient has not confirmed.
    const at = { lat: 5.6, lng: -0.19 };
    await p.app.platform.db.transaction((tx) =>
      p.app.platform.proofConfirmations.openFallback(tx, {
        orderId,
        courierId: id,
        position: { ...at, at: new Date(now) },
        dropoff: at,
      }),
    );
    const held = await runPayouts(p);
    expect(
      (await p.admin('GET', `/payouts?run_id=${held.body.run_id}&payee=courier:${id}`)).body.data,
    ).toEqual([]);
    expect(await balanceOf(p, `courier_payable:${id}`)).toBe(earned);

    await p.app.platform.proofConfirmations.accept(orderId, 'opr_test');
    const paid = await runPayouts(p);
    expect(
      (await p.admin('GET', `/payouts?run_id=${paid.body.run_id}&payee=courier:${id}`)).body.data,
    ).toEqual([expect.objectContaining({ amount_pesewas: earned, status: 'paid' })]);
    await expectBalanced(p);
  });
});
