import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addKey,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { listedPayouts } from '../../helpers/payouts-read.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import {
  HOUR,
  returnSale,
  settleSale,
  vendorPayee,
  setDestination,
  runPayouts,
} from '../helpers.ts';

let p: TestPlatform;
const fake = new FakeTransfers();
// The real clock: the partner's requests are signed with the time (each run is milliseconds after the last).
const now = Date.now();
beforeAll(async () => {
  // A 1-pesewa minimum, so the smallest amounts can be paid out and read back in GHS.
  p = await startPlatform({
    socket: false,
    transfers: fake,
    env: { PAYOUT_INTERVAL_MS: '0', PAYOUT_MINIMUM_PESEWAS: '1' },
  });
});
afterAll(() => p.close());

const LIST = '/api/v1/safe-catalog/payouts.list';
const GET = '/api/v1/safe-catalog/payouts.get';
const list = (s: PartnerSetup, query: Record<string, string> = {}) =>
  s.client.send<any>('GET', LIST, { query });
const get = (s: PartnerSetup, payout_id: string) =>
  s.client.send<any>('GET', GET, { query: { payout_id } });

/** A production partner whose key holds payouts:read, with a wallet number out of its cooling period. */
async function payeePartner(): Promise<PartnerSetup & { account: string }> {
  const s = await createPartner(p, { environment: 'production', scopes: ['payouts:read'] });
  await setDestination(p, 'partner', s.partnerId, {
    kind: 'mobile_money',
    network: 'mtn',
    number: '024 765 4321',
    name: 'Test Partner Ltd',
  });
  await p.app.platform.db.query(
    "update payout_destinations set changed_at = changed_at - interval '30 days' where payee = $1",
    [`partner:${s.partnerId}`],
  );
  return { ...s, account: `partner_markup_payable:${s.partnerId}` };
}

const run = async () => expect((await runPayouts(p)).status).toBe(202);
const events = async (
  payoutId: string,
): Promise<{ type: string; app_id: string; environment: string; payload: any }[]> =>
  (await eventsAbout(p, payoutId))
    .sort((a, b) => a.type.localeCompare(b.type))
    .map(({ type, app_id, environment, payload }) => ({ type, app_id, environment, payload }));

describe('payouts.list and payouts.get', () => {
  it("lists the partner's payouts newest first with its balance, and one payout with its remittance lines", async () => {
    const s = await payeePartner();
    const sold = await settleSale(p, s.account, 3000, now - 30 * HOUR);
    await returnSale(p, s.account, 500, now - 29 * HOUR);
    await run();
    await settleSale(p, s.account, 1200, now - 28 * HOUR);
    fake.knobs.push('fail');
    await run();
    // Within the hold: pending.
    await settleSale(p, s.account, 400, Date.now() - 1 * HOUR);
    const listed = await list(s);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const all = listed.body.data;
    expect(all.payouts.map((x: any) => [x.status, x.amount_pesewas])).toEqual([
      ['failed', 1200],
      ['paid', 2500],
    ]);
    expect(all.balance).toEqual({
      pending_pesewas: 400,
      available_pesewas: 1200,
      paid_out_pesewas: 2500,
      pending_ghs: 4,
      available_ghs: 12,
      paid_out_ghs: 25,
    });
    expect(all.payouts[1]).toMatchObject({
      payout_id: expect.stringMatching(/^pout_/),
      fee_pesewas: 100,
      destination: { kind: 'mobile_money', network: 'mtn', bank_code: null, number_ending: '4321' },
    });

    const detail = await get(s, all.payouts[1].payout_id);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      status: 'paid',
      amount_pesewas: 2500,
      sales_pesewas: 3000,
      deductions_pesewas: 500,
    });
    expect(detail.body.data.lines).toEqual(
      expect.arrayContaining([
        {
          type: 'sale',
          journal_kind: 'sale_settlement',
          subject_id: sold,
          amount_pesewas: 3000,
          amount_ghs: 30,
        },
        expect.objectContaining({
          type: 'deduction',
          journal_kind: 'sale_refund',
          amount_pesewas: -500,
        }),
      ]),
    );
  });

  it('names a share earned at delivery after migration 044 deferred it a sale, and its deferral a deduction', async () => {
    const s = await payeePartner();
    await settleSale(p, s.account, 3000, now - 40 * HOUR);
    await returnSale(p, s.account, 3000, now - 39 * HOUR, 'sale_settlement_deferred');
    const delivered = await settleSale(
      p,
      s.account,
      3000,
      now - 30 * HOUR,
      'sale_settlement_at_delivery',
    );
    await run();
    const [payout] = (await list(s)).body.data.payouts;
    const lines = (await get(s, payout.payout_id)).body.data.lines;
    expect(lines.map((l: any) => [l.type, l.journal_kind, l.amount_pesewas]).sort()).toEqual([
      ['deduction', 'sale_settlement_deferred', -3000],
      ['sale', 'sale_settlement', 3000],
      ['sale', 'sale_settlement_at_delivery', 3000],
    ]);
    expect(
      lines.find((l: any) => l.journal_kind === 'sale_settlement_at_delivery').subject_id,
    ).toBe(delivered);
  });

  it('filters by status and pages with a cursor', async () => {
    const s = await payeePartner();
    for (const hoursAgo of [40, 35, 30]) {
      await settleSale(p, s.account, 1000 + hoursAgo, now - hoursAgo * HOUR);
      await run();
    }
    const ids = (await list(s)).body.data.payouts.map((x: any) => x.payout_id);
    expect(ids).toHaveLength(3);
    const first = (await list(s, { limit: '2' })).body.data;
    expect([first.count, first.payouts.map((x: any) => x.payout_id)]).toEqual([2, ids.slice(0, 2)]);
    const second = (await list(s, { limit: '2', cursor: first.next_cursor })).body.data;
    expect([second.payouts.map((x: any) => x.payout_id), second.next_cursor]).toEqual([
      ids.slice(2),
      null,
    ]);
    expect((await list(s, { status: 'failed' })).body.data.payouts).toEqual([]);
    expect((await list(s, { status: 'paid' })).body.data.count).toBe(3);
  });

  it('says every amount in GHS too, exactly the pesewas over 100, to partners and operators alike', async () => {
    // The integer's own decimal text: what a cedi amount must read as, never a float's tail.
    const cedis = (pesewas: number) =>
      `${Math.trunc(pesewas / 100)}.${String(Math.abs(pesewas) % 100).padStart(2, '0')}`.replace(
        /\.?0+$/,
        '',
      );
    const exact = (pesewas: number, ghs: unknown) => {
      expect(ghs).toBe(pesewas / 100);
      expect(JSON.stringify(ghs)).toBe(cedis(pesewas));
    };
    for (const amount of [1, 10, 99_999_999]) {
      const s = await payeePartner();
      await settleSale(p, s.account, amount, now - 30 * HOUR);
      await run();
      const { payouts, balance } = (await list(s)).body.data;
      // Above the approval threshold the payout waits for an operator: it is listed all the same.
      expect(payouts.map((x: any) => x.amount_pesewas)).toEqual([amount]);
      exact(amount, payouts[0].amount_ghs);
      for (const key of ['pending', 'available', 'paid_out'])
        exact(balance[`${key}_pesewas`], balance[`${key}_ghs`]);
      const detail = (await get(s, payouts[0].payout_id)).body.data;
      for (const key of ['amount', 'sales', 'deductions'])
        exact(detail[`${key}_pesewas`], detail[`${key}_ghs`]);
      exact(amount, detail.lines[0].amount_ghs);
      if (detail.fee_pesewas === null) expect(detail.fee_ghs).toBeNull();
      else exact(detail.fee_pesewas, detail.fee_ghs);

      const admin = (await p.admin('GET', `/payouts/${payouts[0].payout_id}`)).body;
      exact(amount, admin.amount_ghs);
      exact(amount, admin.lines[0].amount_ghs);
      const payee = (await p.admin('GET', `/payees/partner/${s.partnerId}`)).body;
      for (const key of ['pending', 'available', 'receivable'])
        exact(payee[`${key}_pesewas`], payee[`${key}_ghs`]);
    }
    const [latest] = (await p.admin('GET', '/payouts/runs')).body.data;
    exact(latest.total_pesewas, latest.total_ghs);
  });

  it("answers 404 PAYOUT_NOT_FOUND for another partner's payout or none, and 400 for bad queries", async () => {
    const mine = await payeePartner();
    const other = await payeePartner();
    await settleSale(p, other.account, 2000, now - 30 * HOUR);
    await run();
    const theirs = (await list(other)).body.data.payouts[0].payout_id;
    for (const id of [theirs, 'pout_00000000000000000000000000']) {
      const r = await get(mine, id);
      expect([r.status, r.body.code]).toEqual([404, 'PAYOUT_NOT_FOUND']);
    }
    // Another partner's page cursor is no cursor of this partner's.
    const theirCursor = Buffer.from(`p1:${theirs}`).toString('base64url');
    for (const query of [
      { cursor: 'not a cursor' },
      { cursor: theirCursor },
      { status: 'lost' },
      { limit: '0' },
      { extra: '1' },
    ] as Array<Record<string, string>>) {
      const r = await list(mine, query);
      expect([r.status, r.body.code], JSON.stringify(query)).toEqual([400, 'VALIDATION_ERROR']);
    }
    const missing = await mine.client.send<any>('GET', GET, { query: {} });
    expect([missing.status, missing.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('need a production key holding payouts:read by name, signed', async () => {
    const staging = await createPartner(p, { scopes: ['payouts:read'] });
    const wildcard = await createPartner(p, { environment: 'production', scopes: ['*'] });
    for (const path of [LIST, `${GET}?payout_id=pout_x`]) {
      const s = await staging.client.send<any>('GET', path);
      expect([s.status, s.body.code], path).toEqual([403, 'PRODUCTION_KEY_REQUIRED']);
      const w = await wildcard.client.send<any>('GET', path);
      expect([w.status, w.body.code], path).toEqual([403, 'INSUFFICIENT_SCOPE']);
      const anonymous = await p.fetch(`${p.url}${path}`);
      expect([anonymous.status, ((await anonymous.json()) as any).code]).toEqual([
        401,
        'MISSING_API_KEY',
      ]);
    }
  });
});

describe('payout.paid and payout.failed events', () => {
  it('are appended once, in the state change, to each app of the partner with a live production key', async () => {
    const s = await payeePartner();
    // A second app with only a staging key hears nothing.
    const stagingApp = (
      await p.admin('POST', `/partners/${s.partnerId}/apps`, { name: 'Staging only' })
    ).body.app_id as string;
    await addKey(p, { partnerId: s.partnerId, appId: stagingApp }, { environment: 'staging' });
    await settleSale(p, s.account, 2000, now - 30 * HOUR);
    fake.knobs.push('pending');
    await run();
    const [payout] = (await list(s)).body.data.payouts;
    expect(payout.status).toBe('pending');
    expect(await events(payout.payout_id)).toEqual([]);
    fake.settle(payout.payout_id, 'paid');
    // A pending payout is asked again at its next check (once the sending grace has passed): due now.
    await p.app.platform.db.query('update payouts set next_check_at = $2 where id = $1', [
      payout.payout_id,
      new Date(Date.now() - 1000),
    ]);
    await p.app.platform.payouts.sender.recover();
    await p.app.platform.payouts.sender.recover(); // a repeated answer changes nothing
    const paid = await events(payout.payout_id);
    expect(paid).toEqual([
      {
        type: 'payout.paid',
        app_id: s.appId,
        environment: 'production',
        payload: expect.objectContaining({ type: 'payout.paid' }),
      },
    ]);
    expect(paid[0]!.payload.data).toEqual({
      payout_id: payout.payout_id,
      status: 'paid',
      amount_pesewas: 2000,
      fee_pesewas: 100,
      amount_ghs: 20,
      fee_ghs: 1,
      failure_reason: null,
      timestamp: expect.any(String),
    });

    await settleSale(p, s.account, 1900, now - 30 * HOUR);
    fake.knobs.push('fail');
    await run();
    const failed = (await list(s, { status: 'failed' })).body.data.payouts[0];
    await p.app.platform.payouts.sender.recover();
    expect(
      (await events(failed.payout_id)).map((e) => [
        e.type,
        e.app_id,
        e.payload.data.amount_pesewas,
      ]),
    ).toEqual([['payout.failed', s.appId, 1900]]);
  });

  it('are not written for vendors, who have no app', async () => {
    const v = await vendorPayee(p);
    await settleSale(p, v.account, 3000, now - 30 * HOUR);
    await run();
    const [paid] = await listedPayouts(p, { payee: `vendor:${v.id}` });
    expect(paid!.status).toBe('paid');
    expect(await events(paid!.id)).toEqual([]);
  });
});
