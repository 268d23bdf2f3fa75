import { describe, expect, it } from 'vitest';
import { audited } from '../../helpers/audit.ts';
import { createPartner, type TestPlatform } from '../../helpers/harness.ts';
import { allTexts } from '../../helpers/outbox-read.ts';
import { listedPayouts } from '../../helpers/payouts-read.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { operatorWithToken } from '../../operators/helpers.ts';
import {
  balanceOf,
  checkerToken,
  expectBalanced,
  HOUR,
  payouts,
  returnSale,
  setDestination,
  settleSale,
  vendorPayee,
  runPayouts,
} from '../helpers.ts';
import { usePayoutsPlatform } from '../platform.ts';

let p: TestPlatform;
const fake = new FakeTransfers();
let now = Date.parse('2026-03-02T09:00:00Z');
usePayoutsPlatform(
  () => now,
  fake,
  (started) => (p = started),
);

const run = async () => {
  const r = await runPayouts(p);
  expect(r.status).toBe(202);
  return r.body as {
    run_id: string;
    created: number;
    awaiting_approval: number;
    without_destination: string[];
  };
};
const ofRun = async (runId: string, payee: string) =>
  (
    (await p.admin('GET', `/payouts?run_id=${runId}&payee=${payee}`)).body.data as Array<
      Record<string, any>
    >
  )[0];

describe('payee destinations', () => {
  it('refuses bad destinations field by field, and unknown payees, saving nothing', async () => {
    const { id } = await vendorPayee(p);
    const bad = await p.admin('POST', `/payees/vendor/${id}/destination`, {
      kind: 'mobile_money',
      network: 'mtn',
      number: '030 221 1234',
      name: 'K',
    });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'name',
      'number',
    ]);
    const bank = await p.admin('POST', `/payees/vendor/${id}/destination`, {
      kind: 'bank',
      bank_code: '!',
      account_number: '12',
      name: 'Kofi Boateng',
    });
    expect(bank.body.details.map((d: { field: string }) => d.field)).toEqual([
      'bank_code',
      'account_number',
    ]);
    expect(
      (
        await p.admin('POST', '/payees/vendor/ven_missing/destination', {
          kind: 'bank',
          bank_code: '280100',
          account_number: '1234567890',
          name: 'Kofi Boateng',
        })
      ).body.code,
    ).toBe('PAYEE_NOT_FOUND');
    expect((await p.admin('GET', `/payees/vendor/${id}`)).body.destination.number).toBe(
      '0241234567',
    );
  });

  it("reports a name that differs from the provider's registered name, and normalises the number", async () => {
    const { id } = await vendorPayee(p);
    fake.registeredNames.set('0551234567', 'AMA SERWAA MENSAH');
    const saved = await setDestination(p, 'vendor', id, {
      kind: 'mobile_money',
      network: 'telecel',
      number: '+233 55 123 4567',
      name: 'Kofi Boateng',
    });
    expect(saved).toMatchObject({
      name_matches: false,
      destination: { number: '0551234567', resolved_name: 'AMA SERWAA MENSAH', network: 'telecel' },
    });
    const again = await setDestination(p, 'vendor', id, {
      kind: 'mobile_money',
      network: 'telecel',
      number: '0551234567',
      name: 'Ama Serwaa Mensah',
    });
    expect(again.name_matches).toBe(true);
  });

  it("changes a destination only when a second operator approves, and texts the vendor's contact and old wallet", async () => {
    const { id } = await vendorPayee(p, '024 700 0001');
    const proposed = await p.admin('POST', `/payees/vendor/${id}/destination`, {
      kind: 'mobile_money',
      network: 'mtn',
      number: '054 700 0002',
      name: 'Kofi Boateng',
    });
    expect(proposed.status).toBe(202);
    const changeId = proposed.body.pending_change.change_id as string;
    // Waiting: the destination is still the old one, and a second proposal is refused until this one is decided.
    expect((await p.admin('GET', `/payees/vendor/${id}`)).body).toMatchObject({
      destination: { number: '0247000001' },
      pending_change: { change_id: changeId, number: '0547000002', status: 'pending' },
    });
    expect(
      (
        await p.admin('POST', `/payees/vendor/${id}/destination`, {
          kind: 'bank',
          bank_code: '280100',
          account_number: '1234567890',
          name: 'Kofi Boateng',
        })
      ).status,
    ).toBe(409);
    // The shared ADMIN_TOKEN (which proposed it) may propose but never approve; a second finance operator can.
    const self = await p.admin('POST', `/payees/vendor/${id}/destination/approve`, {
      change_id: changeId,
    });
    expect([self.status, self.body.code]).toEqual([403, 'FORBIDDEN']);
    const approved = await p.admin(
      'POST',
      `/payees/vendor/${id}/destination/approve`,
      { change_id: changeId },
      await checkerToken(p),
    );
    expect(approved.status).toBe(200);
    expect((await p.admin('GET', `/payees/vendor/${id}`)).body).toMatchObject({
      destination: { number: '0547000002' },
      pending_change: null,
    });
    // The vendor's contact phone and its old wallet are told, with only the last digits shown.
    const texts = (await allTexts(p))
      .filter((t) => t.body.includes('•••002 '))
      .sort((a, b) => (a.to_number < b.to_number ? -1 : a.to_number > b.to_number ? 1 : 0));
    const contact = (
      await p.app.platform.db.query<{ phone: string }>(
        'select pickup_contact_phone as phone from vendors where id = $1',
        [id],
      )
    )[0]!.phone;
    expect(texts.map((t) => t.to_number)).toEqual([contact, '+233247000001'].sort());
    expect(texts[0]!.body).toContain('from MTN mobile money •••001 to MTN mobile money •••002');
    expect(texts[0]!.body).not.toContain('0547000002');
    // Decided: approving again, or rejecting, is refused.
    expect(
      (
        await p.admin(
          'POST',
          `/payees/vendor/${id}/destination/approve`,
          { change_id: changeId },
          await checkerToken(p),
        )
      ).body.code,
    ).toBe('INVALID_TRANSITION');
    expect(
      (await p.admin('POST', `/payees/vendor/${id}/destination/reject`, { change_id: changeId }))
        .body.code,
    ).toBe('INVALID_TRANSITION');
    expect(
      (
        await p.admin(
          'POST',
          `/payees/vendor/${id}/destination/approve`,
          { change_id: 'pdc_missing' },
          await checkerToken(p),
        )
      ).status,
    ).toBe(404);
  });

  it('leaves the destination as it is when a proposed change is rejected, and audits each step', async () => {
    const { id } = await vendorPayee(p, '024 700 0003');
    const proposed = await p.admin('POST', `/payees/vendor/${id}/destination`, {
      kind: 'mobile_money',
      network: 'mtn',
      number: '054 700 0004',
      name: 'Kofi Boateng',
    });
    const rejected = await p.admin('POST', `/payees/vendor/${id}/destination/reject`, {
      change_id: proposed.body.pending_change.change_id,
    });
    expect(rejected.body).toMatchObject({ status: 'rejected' });
    expect((await p.admin('GET', `/payees/vendor/${id}`)).body).toMatchObject({
      destination: { number: '0247000003' },
      pending_change: null,
    });
    // The first destination (proposed and approved) and this change.
    const actions = (await audited(p, { target_id: id })).filter((e) =>
      e.action.startsWith('payout_destination.'),
    );
    expect(actions.map((a) => a.action).sort()).toEqual([
      'payout_destination.approve',
      'payout_destination.propose',
      'payout_destination.propose',
      'payout_destination.reject',
    ]);
  });
});

describe('balances and runs', () => {
  it('keeps money settled within the hold pending, then pays it once with its remittance lines, the ledger balanced', async () => {
    const v = await vendorPayee(p);
    const old = await settleSale(p, v.account, 5000, now - 30 * HOUR);
    await settleSale(p, v.account, 700, now - 2 * HOUR);
    expect((await p.admin('GET', `/payees/vendor/${v.id}`)).body).toMatchObject({
      available_pesewas: 5000,
      pending_pesewas: 700,
    });
    const r = await run();
    const payout = await ofRun(r.run_id, `vendor:${v.id}`);
    expect(payout).toMatchObject({
      amount_pesewas: 5000,
      status: 'paid',
      fee_pesewas: 100,
      attempts: 1,
    });
    const detail = await p.admin('GET', `/payouts/${payout!.id}`);
    expect(detail.body.lines).toEqual([
      expect.objectContaining({ kind: 'sale_settlement', subject_id: old, amount_pesewas: 5000 }),
    ]);
    expect(await balanceOf(p, v.account)).toBe(700);
    expect(await balanceOf(p, 'payouts_in_transit')).toBe(0);
    expect(await balanceOf(p, 'transfer_fees')).toBe(
      -fake.feePesewas * (await listedPayouts(p, { status: 'paid' })).length,
    );
    expect((await p.admin('GET', `/payees/vendor/${v.id}`)).body).toMatchObject({
      available_pesewas: 0,
      pending_pesewas: 700,
    });
    // A second run finds nothing more for this payee: one payout per payee per run, each entry once.
    expect(await ofRun((await run()).run_id, `vendor:${v.id}`)).toBeUndefined();
    await expectBalanced(p);
  });

  it('leaves balances under the minimum and payees without a destination', async () => {
    const v = await vendorPayee(p);
    await settleSale(p, v.account, 999, now - 30 * HOUR);
    const partner = await createPartner(p);
    await settleSale(p, `partner_markup_payable:${partner.partnerId}`, 2500, now - 30 * HOUR);
    const r = await run();
    expect(await ofRun(r.run_id, `vendor:${v.id}`)).toBeUndefined();
    expect(r.without_destination).toContain(`partner:${partner.partnerId}`);
    // The partner's wallet number set, its markup is paid on the next run.
    await setDestination(p, 'partner', partner.partnerId, {
      kind: 'bank',
      bank_code: '280100',
      account_number: '1234567890',
      name: 'Test Partner Ltd',
    });
    await p.app.platform.db.query(
      "update payout_destinations set changed_at = changed_at - interval '2 days' where payee = $1",
      [`partner:${partner.partnerId}`],
    );
    expect(await ofRun((await run()).run_id, `partner:${partner.partnerId}`)).toMatchObject({
      amount_pesewas: 2500,
      status: 'paid',
    });
  });

  it('returns a failed payout to the payable and pays it on the next run', async () => {
    const v = await vendorPayee(p);
    await settleSale(p, v.account, 3000, now - 30 * HOUR);
    fake.knobs.push('fail');
    const first = await ofRun((await run()).run_id, `vendor:${v.id}`);
    expect(first).toMatchObject({ status: 'failed', failure_reason: 'account closed' });
    expect(await balanceOf(p, v.account)).toBe(3000);
    expect(await ofRun((await run()).run_id, `vendor:${v.id}`)).toMatchObject({
      amount_pesewas: 3000,
      status: 'paid',
    });
    expect(await balanceOf(p, v.account)).toBe(0);
    await expectBalanced(p);
  });

  it('deducts a return that came after a payout from the next payout, never paying a negative balance', async () => {
    const v = await vendorPayee(p);
    await settleSale(p, v.account, 4000, now - 30 * HOUR);
    await run();
    await returnSale(p, v.account, 1500, now - 29 * HOUR);
    expect((await p.admin('GET', `/payees/vendor/${v.id}`)).body.available_pesewas).toBe(-1500);
    expect(await ofRun((await run()).run_id, `vendor:${v.id}`)).toBeUndefined();
    await settleSale(p, v.account, 2600, now - 28 * HOUR);
    const next = await ofRun((await run()).run_id, `vendor:${v.id}`);
    expect(next).toMatchObject({ amount_pesewas: 1100, status: 'paid' });
    const lines = (await p.admin('GET', `/payouts/${next!.id}`)).body.lines.map(
      (l: { kind: string; amount_pesewas: number }) => [l.kind, l.amount_pesewas],
    );
    expect(lines.sort()).toEqual([
      ['sale_refund', -1500],
      ['sale_settlement', 2600],
    ]);
    expect(await balanceOf(p, v.account)).toBe(0);
  });

  it('deducts a share taken back off the payable at once, even within the hold, never paying what it no longer owes', async () => {
    const v = await vendorPayee(p);
    // Credited long ago, taken back an hour ago (migration 044 so moves an undelivered sale's unpaid share).
    await settleSale(p, v.account, 5000, now - 30 * HOUR);
    await returnSale(p, v.account, 5000, now - HOUR);
    await settleSale(p, v.account, 3000, now - 26 * HOUR);
    expect((await p.admin('GET', `/payees/vendor/${v.id}`)).body).toMatchObject({
      available_pesewas: 3000,
      pending_pesewas: 0,
    });
    const payout = await ofRun((await run()).run_id, `vendor:${v.id}`);
    expect(payout).toMatchObject({ amount_pesewas: 3000, status: 'paid' });
    expect(await balanceOf(p, v.account)).toBe(0);
    await expectBalanced(p);
  });

  it('pays each entry once when two runs race', async () => {
    const v = await vendorPayee(p);
    await settleSale(p, v.account, 6000, now - 30 * HOUR);
    const [a, b] = await Promise.all([run(), run()]);
    const made = [
      await ofRun(a.run_id, `vendor:${v.id}`),
      await ofRun(b.run_id, `vendor:${v.id}`),
    ].filter(Boolean);
    expect(made).toHaveLength(1);
    expect(await balanceOf(p, v.account)).toBe(0);
  });

  it('lets only finance (and admin) operators run payouts', async () => {
    const support = await operatorWithToken(p, ['support']);
    expect((await p.admin('POST', '/payouts/runs', undefined, support.token)).body.code).toBe(
      'FORBIDDEN',
    );
  });
});

describe('maker-checker', () => {
  it('holds a payout above the approval amount until a second finance operator approves it', async () => {
    const v = await vendorPayee(p);
    await settleSale(p, v.account, 600_000, now - 30 * HOUR);
    const maker = await operatorWithToken(p, ['finance']);
    const checker = await operatorWithToken(p, ['finance']);
    const r = (await runPayouts(p, maker.token)).body;
    const held = await ofRun(r.run_id, `vendor:${v.id}`);
    expect(held).toMatchObject({ status: 'awaiting_approval', approval_reasons: ['amount'] });
    expect(fake.transfers.has(held!.id)).toBe(false);
    expect(
      (await p.admin('POST', `/payouts/${held!.id}/approve`, undefined, maker.token)).body.code,
    ).toBe('SAME_OPERATOR');
    // The shared ADMIN_TOKEN never approves a money action, whoever made it.
    expect((await p.admin('POST', `/payouts/${held!.id}/approve`)).body.code).toBe('FORBIDDEN');
    const approved = await p.admin(
      'POST',
      `/payouts/${held!.id}/approve`,
      undefined,
      checker.token,
    );
    expect(approved.body).toMatchObject({ status: 'paid', approved_by: checker.id });
    expect(
      (await p.admin('POST', `/payouts/${held!.id}/approve`, undefined, checker.token)).body.code,
    ).toBe('INVALID_TRANSITION');
  });

  it('holds payouts to a destination changed within the cooling period; a rejection owes the money again', async () => {
    const v = await vendorPayee(p);
    await setDestination(p, 'vendor', v.id, {
      kind: 'mobile_money',
      network: 'airteltigo',
      number: '0261234567',
      name: 'Kofi Boateng',
    });
    await settleSale(p, v.account, 2000, now - 30 * HOUR);
    const held = await ofRun((await run()).run_id, `vendor:${v.id}`);
    expect(held).toMatchObject({
      status: 'awaiting_approval',
      approval_reasons: ['destination_changed'],
    });
    expect(await balanceOf(p, v.account)).toBe(0);
    expect((await p.admin('POST', `/payouts/${held!.id}/reject`)).body.status).toBe('rejected');
    expect(await balanceOf(p, v.account)).toBe(2000);
    expect((await p.admin('GET', `/payees/vendor/${v.id}`)).body.available_pesewas).toBe(2000);
    await expectBalanced(p);
  });
});

describe('provider answers', () => {
  it('confirms a pending transfer by its status, also on a signed webhook hint, and returns a reversal to the payable', async () => {
    const v = await vendorPayee(p);
    await settleSale(p, v.account, 3300, now - 30 * HOUR);
    fake.knobs.push('pending');
    const pending = await ofRun((await run()).run_id, `vendor:${v.id}`);
    expect(pending!.status).toBe('pending');
    fake.settle(pending!.id, 'paid');
    const hook = (headers: Record<string, string>) =>
      p.fetch(`${p.url}/webhooks/transfers/fake`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ reference: pending!.id }),
      });
    expect((await hook({ 'x-fake-signature': 'forged' })).status).toBe(400);
    expect((await p.admin('GET', `/payouts/${pending!.id}`)).body.status).toBe('pending');
    expect((await hook({ 'x-fake-signature': fake.secret })).status).toBe(200);
    expect((await p.admin('GET', `/payouts/${pending!.id}`)).body.status).toBe('paid');
    // A paid payout is no longer polled: its reversal arrives as a hint, confirmed by its status.
    fake.settle(pending!.id, 'reversed');
    await payouts(p).sender.recover();
    expect((await p.admin('GET', `/payouts/${pending!.id}`)).body.status).toBe('paid');
    expect(
      await payouts(p).sender.hint(JSON.stringify({ reference: 'pout_not_ours' }), {
        'x-fake-signature': fake.secret,
      }),
    ).toBe('unknown');
    await hook({ 'x-fake-signature': fake.secret });
    expect((await p.admin('GET', `/payouts/${pending!.id}`)).body).toMatchObject({
      status: 'reversed',
      failure_reason: 'reversed by the bank',
    });
    expect(await balanceOf(p, v.account)).toBe(3300);
    await expectBalanced(p);
  });
});

describe('the schedule', () => {
  it('runs once per Accra day, after the cut-off', async () => {
    const before = (await p.admin('GET', '/payouts/runs')).body.data.filter(
      (r: { trigger: string }) => r.trigger === 'schedule',
    ).length;
    now = Date.parse('2026-03-02T15:59:00Z');
    await payouts(p).service.tick();
    now = Date.parse('2026-03-02T16:00:00Z');
    await payouts(p).service.tick();
    await payouts(p).service.tick();
    const runs = (await p.admin('GET', '/payouts/runs')).body.data.filter(
      (r: { trigger: string }) => r.trigger === 'schedule',
    );
    expect(runs.length - before).toBe(1);
    expect(runs[0].schedule_day).toBe('2026-03-02');
    now = Date.parse('2026-03-02T09:00:00Z');
  });
});
