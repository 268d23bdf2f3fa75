import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addKey,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import {
  balance,
  decide,
  expectLedgerConsistent,
  initiate,
  topUp,
  verify,
  walletPartner,
  WALLET_SCOPES,
} from '../helpers.ts';

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform();
  s = await walletPartner(p);
});
afterAll(() => p.close());

describe('wallet.balance and wallet.topup.*', () => {
  it('are production-only and need delivery:wallet:topup by name', async () => {
    const staging = await createPartner(p, { scopes: ['*'] });
    const res = await staging.client.send<any>('GET', '/api/v1/delivery/wallet.balance');
    expect([res.status, res.body.code]).toEqual([403, 'PRODUCTION_KEY_REQUIRED']);
    const wildcard = await createPartner(p, { environment: 'production', scopes: ['*'] });
    for (const [method, op] of [
      ['GET', 'wallet.balance'],
      ['POST', 'wallet.topup.initiate'],
      ['POST', 'wallet.topup.verify'],
    ] as const) {
      const r = await wildcard.client.send<any>(
        method,
        `/api/v1/delivery/${op}`,
        method === 'POST' ? { body: {} } : {},
      );
      expect([r.status, r.body.code], op).toEqual([403, 'INSUFFICIENT_SCOPE']);
    }
    expect(await balance(s)).toBe(0);
  });

  it('initiates a top-up with a checkout URL and a serviceD_WA reference', async () => {
    const t = await initiate(s, 50);
    expect(t.client_reference).toMatch(/^serviceD_WA[0-9a-f]{16}$/);
    expect(t.checkout_url).toMatch(/\/sandbox\/checkout\/chk_/);
    expect(t).toMatchObject({ amount_ghs: 50 });
  });

  it('refuses amounts under GHS 30, with more than 2 decimals, or not numbers', async () => {
    for (const amount_ghs of [29.99, 0, -5, 30.001, '50']) {
      const res = await s.client.send<any>('POST', '/api/v1/delivery/wallet.topup.initiate', {
        body: { amount_ghs },
      });
      expect([res.status, res.body.code], String(amount_ghs)).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect(
      (
        await s.client.send<any>('POST', '/api/v1/delivery/wallet.topup.initiate', {
          body: { amount_ghs: 30, currency: 'GHS' },
        })
      ).status,
    ).toBe(400);
  });

  it('answers pending until paid, then credited once, then already_credited', async () => {
    const t = await initiate(s, 40.5);
    const pending = await verify(s, t.client_reference);
    expect(pending.body.data).toEqual({
      credited: false,
      state: 'pending',
      verification_status: 'Unpaid',
    });
    const before = await balance(s);
    // Paid at the gateway, callback lost: verify is what credits.
    await p.app.platform.db.query(
      "update sandbox_checkouts set status = 'Paid' where client_reference = $1",
      [t.client_reference],
    );
    const credited = await verify(s, t.client_reference);
    expect(credited.body.data).toMatchObject({
      credited: true,
      state: 'credited',
      amount_ghs: 40.5,
    });
    expect(credited.body.data.balance_ghs).toBeCloseTo(before + 40.5, 2);
    const again = await verify(s, t.client_reference);
    expect(again.body.data).toMatchObject({
      credited: true,
      state: 'already_credited',
      amount_ghs: 40.5,
    });
    expect(await balance(s)).toBeCloseTo(before + 40.5, 2);
    await expectLedgerConsistent(p);
  });

  it('credits once when the gateway callback arrives first, and emits wallet.topup.credited to the initiating app', async () => {
    const t = await initiate(s, 30);
    // The sandbox sends its callback before the buyer is redirected.
    expect(await decide(t.checkout_url, 'pay')).toBe(200);
    const v = await verify(s, t.client_reference);
    expect(v.body.data.state).toBe('already_credited');
    const events = await p.app.platform.db.query<any>(
      "select app_id, environment, payload from outbox_events where type = 'wallet.topup.credited' and payload->'data'->>'client_reference' = $1",
      [t.client_reference],
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      app_id: s.appId,
      environment: 'production',
      payload: { data: { amount_ghs: 30 } },
    });
  });

  it('keeps a declined or expired checkout pending with the raw status', async () => {
    const declined = await initiate(s, 35);
    expect(await decide(declined.checkout_url, 'decline')).toBe(200);
    expect((await verify(s, declined.client_reference)).body.data).toEqual({
      credited: false,
      state: 'pending',
      verification_status: 'Declined',
    });
    expect(await decide(declined.checkout_url, 'pay')).toBe(409);
    const expired = await initiate(s, 35);
    await p.app.platform.db.query(
      "update sandbox_checkouts set created_at = now() - interval '31 minutes' where client_reference = $1",
      [expired.client_reference],
    );
    const res = await verify(s, expired.client_reference);
    expect(await decide(expired.checkout_url, 'pay')).toBe(409);
    expect(res.body.data).toEqual({
      credited: false,
      state: 'pending',
      verification_status: 'Expired',
    });
  });

  it("lets any of the partner's apps verify, and answers 404 TOPUP_NOT_FOUND to others", async () => {
    const t = await initiate(s, 30);
    await decide(t.checkout_url, 'pay');
    const app2 = (await p.admin('POST', `/partners/${s.partnerId}/apps`, { name: 'Second app' }))
      .body;
    const sibling = await addKey(
      p,
      { partnerId: s.partnerId, appId: app2.app_id },
      { environment: 'production', scopes: WALLET_SCOPES },
    );
    expect((await verify(sibling, t.client_reference)).body.data.credited).toBe(true);
    const stranger = await walletPartner(p);
    for (const ref of [
      t.client_reference,
      'serviceD_WA0000000000000000',
      'not-our-reference-at-all',
    ]) {
      const res = await verify(stranger, ref);
      expect([res.status, res.body.code], ref).toEqual([404, 'TOPUP_NOT_FOUND']);
    }
    expect((await verify(stranger, 'short')).body.code).toBe('VALIDATION_ERROR');
  });

  it('credits exactly once under 20 concurrent verifies racing the callback', async () => {
    const t = await initiate(s, 100);
    const before = await balance(s);
    // Paid at the gateway without the callback yet: flip the sandbox row directly, then race.
    await p.app.platform.db.query(
      "update sandbox_checkouts set status = 'Paid' where client_reference = $1",
      [t.client_reference],
    );
    const callback = () =>
      p.fetch(`${p.url}/webhooks/payments/sandbox`, {
        method: 'POST',
        body: JSON.stringify({ client_reference: t.client_reference, status: 'Paid' }),
      });
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => verify(s, t.client_reference)),
      callback(),
      ...Array.from({ length: 10 }, () => verify(s, t.client_reference)),
    ]);
    const states = results.flatMap((r) =>
      'body' in r && (r as any).body?.data ? [(r as any).body.data.state] : [],
    );
    expect(states).toHaveLength(20);
    expect(states.filter((x) => x === 'credited').length).toBeLessThanOrEqual(1);
    expect(states.every((x) => x === 'credited' || x === 'already_credited')).toBe(true);
    expect(await balance(s)).toBeCloseTo(before + 100, 2);
    const [{ n }] = (await p.app.platform.db.query<{ n: number }>(
      "select count(*)::int as n from ledger_journals where kind = 'wallet_topup' and subject_id = (select id from wallet_topups where client_reference = $1)",
      [t.client_reference],
    )) as [{ n: number }];
    expect(n).toBe(1);
    await expectLedgerConsistent(p);
  });

  it('shows operators the balance, credit limit and entries', async () => {
    const fresh = await walletPartner(p);
    await topUp(fresh, 60);
    await p.admin('PATCH', `/partners/${fresh.partnerId}`, { credit_limit_ghs: 25 });
    const res = await p.admin('GET', `/partners/${fresh.partnerId}/wallet`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      balance_ghs: 60,
      credit_limit_ghs: 25,
      entries: [{ kind: 'wallet_topup', amount_ghs: 60 }],
    });
    expect((await p.admin('GET', '/partners/ptn_missing/wallet')).body.code).toBe(
      'PARTNER_NOT_FOUND',
    );
  });
});
