import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVendor } from '../../catalog/helpers.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { audited } from '../../helpers/audit.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { listedPayouts } from '../../helpers/payouts-read.ts';
import { operatorWithToken } from '../../operators/helpers.ts';
import { checkerToken, HOUR, payouts, setDestination, settleSale, runPayouts } from '../helpers.ts';

let p: TestPlatform;
const fake = new FakeTransfers();
const now = Date.parse('2026-03-02T09:00:00Z');
beforeAll(async () => {
  // No cooling: a payout to a destination goes out as soon as the destination is verified.
  p = await startPlatform({
    socket: false,
    clock: () => now,
    transfers: fake,
    env: { PAYOUT_INTERVAL_MS: '0', PAYOUT_COOLING_HOURS: '0' },
  });
});
afterAll(() => p.close());

const payee = async (id: string) =>
  (await p.admin('GET', `/payees/vendor/${id}`)).body as Record<string, any>;
const run = async () => (await runPayouts(p)).body as Record<string, any>;
const accept = async (id: string, body: unknown, token?: string) =>
  p.admin('POST', `/payees/vendor/${id}/destination/accept`, body, token);

/** A vendor owed 2,000 past the hold, whose destination (set by the admin token, approved by the checker) is `number` under the name Kofi Boateng. */
async function owedVendor(number: string): Promise<{ id: string; account: string }> {
  const id = (await createVendor(p)).vendor_id as string;
  await setDestination(p, 'vendor', id, {
    kind: 'mobile_money',
    network: 'mtn',
    number,
    name: 'Kofi Boateng',
  });
  await settleSale(p, `vendor_payable:${id}`, 2000, now - 30 * HOUR);
  return { id, account: `vendor_payable:${id}` };
}

describe('a new destination', () => {
  it('is verified when the provider knows the account under the name given, and keeps its recipient', async () => {
    fake.registeredNames.set('0248200001', 'BOATENG KOFI A.');
    const v = await owedVendor('024 820 0001');
    expect((await payee(v.id)).destination).toMatchObject({
      verification: 'verified',
      resolved_name: 'BOATENG KOFI A.',
      recipient_code: 'RCP_fake_0248200001',
      review_reason: null,
    });
    await run();
    expect(
      fake.transfers.get((await p.admin('GET', `/payouts?payee=vendor:${v.id}`)).body.data[0].id)
        ?.state,
    ).toBe('paid');
  });

  it('needs review when the registered name differs or the account is unknown: runs skip it and say so, nothing is sent', async () => {
    fake.registeredNames.set('0248200002', 'AMA SERWAA MENSAH');
    fake.unknownAccounts.add('0248200003');
    const mismatch = await owedVendor('024 820 0002');
    const unknown = await owedVendor('024 820 0003');
    expect((await payee(mismatch.id)).destination).toMatchObject({
      verification: 'needs_review',
      resolved_name: 'AMA SERWAA MENSAH',
      review_reason: expect.stringContaining('registered to AMA SERWAA MENSAH, not Kofi Boateng'),
    });
    expect((await payee(unknown.id)).destination).toMatchObject({
      verification: 'needs_review',
      recipient_code: null,
      review_reason: 'The provider refused the account: no such account',
    });
    const r = await run();
    expect(r.unverified_destination).toEqual(
      expect.arrayContaining([`vendor:${mismatch.id}`, `vendor:${unknown.id}`]),
    );
    for (const payee of [`vendor:${mismatch.id}`, `vendor:${unknown.id}`])
      expect(await listedPayouts(p, { payee })).toEqual([]);
  });

  it('that needs review is accepted only by a finance operator who neither proposed nor approved it, for the version seen; bad input changes nothing', async () => {
    fake.registeredNames.set('0248200004', 'KOFI BOATENG ENTERPRISES OF ACCRA');
    const v = await owedVendor('024 820 0004');
    const { version, verification } = (await payee(v.id)).destination;
    expect([version, verification]).toEqual([1, 'needs_review']);
    const third = (await operatorWithToken(p, ['finance'])).token;
    const support = (await operatorWithToken(p, ['support'])).token;
    const cases: Array<[unknown, string | undefined, number, string]> = [
      [{ version }, undefined, 403, 'FORBIDDEN'], // the shared ADMIN_TOKEN (which proposed it) never approves
      [{ version }, await checkerToken(p), 409, 'SAME_OPERATOR'], // who approved the change
      [{ version }, support, 403, 'FORBIDDEN'],
      [{}, third, 400, 'VALIDATION_ERROR'],
      [{ version: 0 }, third, 400, 'VALIDATION_ERROR'],
      [{ version: '1' }, third, 400, 'VALIDATION_ERROR'],
      [{ version, extra: true }, third, 400, 'VALIDATION_ERROR'],
      [{ version: 2 }, third, 409, 'INVALID_TRANSITION'],
    ];
    for (const [body, token, status, code] of cases) {
      const r = await accept(v.id, body, token);
      expect([r.status, r.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect(
      (
        await p.admin(
          'POST',
          '/payees/vendor/ven_missing/destination/accept',
          { version: 1 },
          third,
        )
      ).body.code,
    ).toBe('PAYEE_NOT_FOUND');
    expect((await payee(v.id)).destination.verification).toBe('needs_review');
    expect(
      (await audited(p, { action: 'payout_destination.accept', target_id: v.id })).length,
    ).toBe(0);

    const accepted = await accept(v.id, { version }, third);
    expect(accepted.status).toBe(200);
    expect(accepted.body.destination).toMatchObject({
      verification: 'verified',
      reviewed_by: expect.stringMatching(/^opr_/),
    });
    expect(
      (await audited(p, { action: 'payout_destination.accept', target_id: v.id })).length,
    ).toBe(1);
    expect((await accept(v.id, { version }, third)).body.code).toBe('INVALID_TRANSITION');
    // Now paid, to the destination accepted.
    await run();
    const [paid] = (await p.admin('GET', `/payouts?payee=vendor:${v.id}`)).body.data;
    expect(paid).toMatchObject({ status: 'paid', destination: { number: '0248200004' } });
  });

  it('stays unverified while the provider is down, and the payouts job verifies it later', async () => {
    fake.recipientsDown = true;
    let v: { id: string; account: string };
    try {
      v = await owedVendor('024 820 0005');
      expect((await payee(v.id)).destination.verification).toBe('unverified');
      expect((await run()).unverified_destination).toContain(`vendor:${v.id}`);
      await payouts(p).service.tick();
      expect((await payee(v.id)).destination.verification).toBe('unverified');
    } finally {
      fake.recipientsDown = false;
    }
    await payouts(p).service.tick();
    expect((await payee(v.id)).destination).toMatchObject({
      verification: 'verified',
      recipient_code: 'RCP_fake_0248200005',
    });
    await run();
    expect((await p.admin('GET', `/payouts?payee=vendor:${v.id}`)).body.data[0].status).toBe(
      'paid',
    );
  });

  it('of an operator change is verified after approval; a change proposed for a mismatching name is flagged at once', async () => {
    fake.registeredNames.set('0548200006', 'YAW OWUSU');
    const v = await owedVendor('024 820 0006');
    const proposed = await p.admin('POST', `/payees/vendor/${v.id}/destination`, {
      kind: 'mobile_money',
      network: 'mtn',
      number: '054 820 0006',
      name: 'Kofi Boateng',
    });
    expect(proposed.body).toMatchObject({
      name_matches: false,
      pending_change: { resolved_name: 'YAW OWUSU' },
    });
    const approved = await p.admin(
      'POST',
      `/payees/vendor/${v.id}/destination/approve`,
      { change_id: proposed.body.pending_change.change_id },
      await checkerToken(p),
    );
    expect(approved.body.destination).toMatchObject({
      version: 2,
      verification: 'needs_review',
      resolved_name: 'YAW OWUSU',
    });
  });
});
