import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubtelEnv, startFakeHubtel, type FakeHubtel } from '../../fakes/hubtel.ts';
import { startPlatform, type PartnerSetup, type TestPlatform } from '../../helpers/harness.ts';
import { balance, expectLedgerConsistent, initiate, verify, walletPartner } from '../helpers.ts';

// The platform wired to Hubtel's protocol, against a local server that speaks it.
let hubtel: FakeHubtel;
let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  hubtel = await startFakeHubtel();
  p = await startPlatform({
    env: hubtelEnv(hubtel),
  });
  s = await walletPartner(p);
});
afterAll(async () => {
  await p.close();
  await hubtel.close();
});

describe('wallet top-ups through Hubtel', () => {
  it('initiates a Hubtel checkout, credits on Paid through its callback, once', async () => {
    const t = await initiate(s, 75.25);
    expect(t.checkout_url).toContain(hubtel.url);
    expect((await verify(s, t.client_reference)).body.data).toEqual({
      credited: false,
      state: 'pending',
      verification_status: 'Unpaid',
    });
    hubtel.pay(t.client_reference);
    const cb = await hubtel.sendCallback(t.client_reference);
    expect(cb.status).toBe(200);
    expect(await balance(s)).toBe(75.25);
    expect((await verify(s, t.client_reference)).body.data).toMatchObject({
      credited: true,
      state: 'already_credited',
      amount_ghs: 75.25,
    });
  });

  it('credits the amount the gateway confirms when it differs from the one asked', async () => {
    const before = await balance(s);
    const t = await initiate(s, 50);
    hubtel.pay(t.client_reference, 4000);
    expect((await verify(s, t.client_reference)).body.data).toMatchObject({
      state: 'credited',
      amount_ghs: 40,
    });
    expect(await balance(s)).toBeCloseTo(before + 40, 2);
  });

  it('answers 502 GATEWAY_ERROR on a 5xx, a timeout or garbage, changing nothing, and a later verify succeeds', async () => {
    const before = await balance(s);
    for (const kind of ['500', 'timeout', 'garbage'] as const) {
      hubtel.failNext(kind);
      const res = await s.client.send<any>('POST', '/api/v1/delivery/wallet.topup.initiate', {
        body: { amount_ghs: 30 },
      });
      expect([res.status, res.body.code], kind).toEqual([502, 'GATEWAY_ERROR']);
    }
    const t = await initiate(s, 30);
    hubtel.pay(t.client_reference);
    hubtel.failNext('timeout');
    const failed = await verify(s, t.client_reference);
    expect([failed.status, failed.body.code]).toEqual([502, 'GATEWAY_ERROR']);
    expect(await balance(s)).toBe(before);
    expect((await verify(s, t.client_reference)).body.data.state).toBe('credited');
    expect(await balance(s)).toBeCloseTo(before + 30, 2);
    await expectLedgerConsistent(p);
  });

  it('ignores callbacks it cannot read or for references it does not know', async () => {
    const bad = await p.fetch(`${p.url}/webhooks/payments/hubtel`, {
      method: 'POST',
      body: 'garbage',
    });
    expect(bad.status).toBe(400);
    const unknown = await p.fetch(`${p.url}/webhooks/payments/hubtel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ResponseCode: '0000',
        Status: 'Success',
        Data: { ClientReference: 'serviceD_WAffffffffffffffff', Status: 'Success', Amount: 100 },
      }),
    });
    expect(unknown.status).toBe(200);
  });
});
