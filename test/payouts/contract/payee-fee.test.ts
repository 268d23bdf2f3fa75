import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_JOURNAL_KINDS } from '../../../src/modules/payouts/index.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { legsAbout } from '../../helpers/ledger-read.ts';
import {
  balanceOf,
  expectBalanced,
  HOUR,
  payouts,
  runPayouts,
  setDestination,
  settleSale,
  vendorPayee,
} from '../helpers.ts';

let p: TestPlatform;
const fake = new FakeTransfers();
// The real clock: the partner's requests are signed with the time.
const now = Date.now();
const MOMO_FEE = 150;
const BANK_FEE = 300;
beforeAll(async () => {
  // Partners bear the fee; vendors are not named, so the platform bears theirs.
  p = await startPlatform({
    socket: false,
    transfers: fake,
    env: {
      PAYOUT_INTERVAL_MS: '0',
      PAYOUT_FEE_BEARER: 'partner:payee',
      PAYOUT_PAYEE_FEES: `mobile_money:${MOMO_FEE},bank:${BANK_FEE}`,
    },
  });
  fake.feePesewas = MOMO_FEE;
});
afterAll(() => p.close());

/** A production partner whose key reads payouts, paid to `destination`, out of its cooling period. */
async function payeePartner(
  destination: Record<string, string> = {
    kind: 'mobile_money',
    network: 'mtn',
    number: '024 765 4321',
    name: 'Test Partner Ltd',
  },
): Promise<PartnerSetup & { account: string }> {
  const s = await createPartner(p, { environment: 'production', scopes: ['payouts:read'] });
  await setDestination(p, 'partner', s.partnerId, destination);
  await p.app.platform.db.query(
    "update payout_destinations set changed_at = changed_at - interval '30 days' where payee = $1",
    [`partner:${s.partnerId}`],
  );
  return { ...s, account: `partner_markup_payable:${s.partnerId}` };
}

const run = async () => {
  const r = await runPayouts(p);
  expect(r.status).toBe(202);
  return r.body.run_id as string;
};
const payoutsOf = async (payee: string) =>
  (await p.admin('GET', `/payouts?payee=${payee}`)).body.data.sort(
    (a: { created_at: string }, b: { created_at: string }) =>
      a.created_at.localeCompare(b.created_at),
  ) as Array<Record<string, any>>;

/** Each account's sum over the journals of these payouts. */
const legsOf = async (payoutIds: string[]) => {
  const sums: Record<string, number> = {};
  for (const id of payoutIds)
    for (const l of await legsAbout(p, PAYOUT_JOURNAL_KINDS, id))
      sums[l.account] = (sums[l.account] ?? 0) + l.amount_pesewas;
  return sums;
};

describe('who bears the transfer fee', () => {
  it("withholds the fee of the payee's channel from a payee who bears it, shown to operators and the partner; the platform bears a vendor's", async () => {
    const momo = await payeePartner();
    const bank = await payeePartner({
      kind: 'bank',
      bank_code: '280100',
      account_number: '1234567890',
      name: 'Test Partner Ltd',
    });
    const v = await vendorPayee(p);
    for (const account of [momo.account, bank.account, v.account])
      await settleSale(p, account, 3000, now - 30 * HOUR);
    await run();

    const [m] = await payoutsOf(`partner:${momo.partnerId}`);
    expect(m).toMatchObject({
      status: 'paid',
      amount_pesewas: 3000 - MOMO_FEE,
      payee_fee_pesewas: MOMO_FEE,
      fee_pesewas: MOMO_FEE,
    });
    expect(fake.transfers.get(m!.id)!.amountPesewas).toBe(3000 - MOMO_FEE);
    expect((await payoutsOf(`partner:${bank.partnerId}`))[0]).toMatchObject({
      status: 'paid',
      amount_pesewas: 3000 - BANK_FEE,
      payee_fee_pesewas: BANK_FEE,
    });
    expect((await payoutsOf(`vendor:${v.id}`))[0]).toMatchObject({
      status: 'paid',
      amount_pesewas: 3000,
      payee_fee_pesewas: 0,
    });

    // The payout's journals: the payable paid in full, the fee withheld then set against the provider's.
    const created = await legsAbout(p, ['payout_created'], m!.id);
    expect(created.map((e) => [e.account, Number(e.amount_pesewas)])).toEqual([
      [momo.account, -3000],
      ['payout_fees_withheld', MOMO_FEE],
      ['payouts_in_transit', 3000 - MOMO_FEE],
    ]);
    expect(await legsOf([m!.id])).toEqual({
      [momo.account]: -3000,
      payout_fees_withheld: 0,
      payouts_in_transit: 0,
      'transfer_clearing:fake': 3000,
      transfer_fees: 0,
    });
    expect(await balanceOf(p, momo.account)).toBe(0);

    // The partner's own view: the fee deducted, the amount sent, what was paid out.
    const detail = await momo.client.send<any>('GET', '/api/v1/safe-catalog/payouts.get', {
      query: { payout_id: m!.id },
    });
    expect(detail.body.data).toMatchObject({
      amount_pesewas: 3000 - MOMO_FEE,
      payee_fee_pesewas: MOMO_FEE,
      sales_pesewas: 3000,
      deductions_pesewas: 0,
    });
    const listed = await momo.client.send<any>('GET', '/api/v1/safe-catalog/payouts.list', {
      query: {},
    });
    expect(listed.body.data.balance.paid_out_pesewas).toBe(3000 - MOMO_FEE);
    await expectBalanced(p);
  });

  it('makes no payout whose amount after the fee would be below the minimum', async () => {
    const s = await payeePartner();
    // The minimum is GHS 10.00: owed 10.00 + the fee less one pesewa, nothing is paid.
    await settleSale(p, s.account, 1000 + MOMO_FEE - 1, now - 30 * HOUR);
    await run();
    expect(await payoutsOf(`partner:${s.partnerId}`)).toEqual([]);
    expect((await p.admin('GET', `/payees/partner/${s.partnerId}`)).body.available_pesewas).toBe(
      1000 + MOMO_FEE - 1,
    );
    await settleSale(p, s.account, 1, now - 30 * HOUR);
    await run();
    expect(await payoutsOf(`partner:${s.partnerId}`)).toEqual([
      expect.objectContaining({
        status: 'paid',
        amount_pesewas: 1000,
        payee_fee_pesewas: MOMO_FEE,
      }),
    ]);
    expect(await balanceOf(p, s.account)).toBe(0);
    await expectBalanced(p);
  });

  it("withholds the new channel's fee when a payout not yet sent is made again for a new destination", async () => {
    // Its destination just set: the payout waits for approval while it cools.
    const s = await createPartner(p, { environment: 'production', scopes: ['payouts:read'] });
    await setDestination(p, 'partner', s.partnerId, {
      kind: 'mobile_money',
      network: 'mtn',
      number: '024 765 4321',
      name: 'Test Partner Ltd',
    });
    await settleSale(p, `partner_markup_payable:${s.partnerId}`, 3000, now - 30 * HOUR);
    await run();
    const [old] = await payoutsOf(`partner:${s.partnerId}`);
    expect(old).toMatchObject({
      status: 'awaiting_approval',
      amount_pesewas: 3000 - MOMO_FEE,
      payee_fee_pesewas: MOMO_FEE,
    });
    await setDestination(p, 'partner', s.partnerId, {
      kind: 'bank',
      bank_code: '280100',
      account_number: '1234567890',
      name: 'Test Partner Ltd',
    });
    const [cancelled, remade] = await payoutsOf(`partner:${s.partnerId}`);
    expect(cancelled).toMatchObject({ id: old!.id, status: 'cancelled', replaced_by: remade!.id });
    expect(remade).toMatchObject({
      status: 'awaiting_approval',
      amount_pesewas: 3000 - BANK_FEE,
      payee_fee_pesewas: BANK_FEE,
      destination: { kind: 'bank' },
    });
    expect(await legsOf([old!.id, remade!.id])).toEqual({
      [`partner_markup_payable:${s.partnerId}`]: -3000,
      payout_fees_withheld: BANK_FEE,
      payouts_in_transit: 3000 - BANK_FEE,
    });
    await expectBalanced(p);
  });

  it('charges the payee once for a payout reversed after it was paid and made again: the reversal gives its fee back', async () => {
    const s = await payeePartner();
    await settleSale(p, s.account, 3000, now - 30 * HOUR);
    await run();
    const [first] = await payoutsOf(`partner:${s.partnerId}`);
    expect(first).toMatchObject({ status: 'paid', payee_fee_pesewas: MOMO_FEE });
    fake.settle(first!.id, 'reversed');
    await payouts(p).sender.hint(JSON.stringify({ reference: first!.id }), {
      'x-fake-signature': fake.secret,
    });
    // Owed again in full: the lines and the fee.
    expect(await balanceOf(p, s.account)).toBe(3000);
    await run();
    const [, second] = await payoutsOf(`partner:${s.partnerId}`);
    expect(second).toMatchObject({
      status: 'paid',
      amount_pesewas: 3000 - MOMO_FEE,
      payee_fee_pesewas: MOMO_FEE,
    });
    expect((await payoutsOf(`partner:${s.partnerId}`)).map((x) => x.status)).toEqual([
      'reversed',
      'paid',
    ]);

    // The partner received 28.50 once and bore one fee; the platform bore the provider's fee of the reversed transfer.
    expect(await balanceOf(p, s.account)).toBe(0);
    expect(await legsOf([first!.id, second!.id])).toEqual({
      [s.account]: -3000,
      payout_fees_withheld: 0,
      payouts_in_transit: 0,
      // Sent once for good; the provider's fee for each of the two transfers.
      'transfer_clearing:fake': 3000 - MOMO_FEE + 2 * MOMO_FEE,
      transfer_fees: -MOMO_FEE,
    });
    const listed = await s.client.send<any>('GET', '/api/v1/safe-catalog/payouts.list', {
      query: {},
    });
    expect(listed.body.data.balance.paid_out_pesewas).toBe(3000 - MOMO_FEE);
    await expectBalanced(p);
  });
});
