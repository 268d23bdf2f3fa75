import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paystackEnv, startFakePaystack, type FakePaystack } from '../../fakes/paystack.ts';
import { startPlatform, type PartnerSetup, type TestPlatform } from '../../helpers/harness.ts';
import { balance, expectLedgerConsistent, initiate, verify, walletPartner } from '../helpers.ts';

// The platform wired to Paystack's protocol (PAYMENT_GATEWAY=paystack), against a local server that speaks it.
let paystack: FakePaystack;
let p: TestPlatform;
let s: PartnerSetup;
const theirs = (clientReference: string) => clientReference.replaceAll('_', '-');
beforeAll(async () => {
  paystack = await startFakePaystack();
  p = await startPlatform({
    env: { ...paystackEnv(paystack), PAYSTACK_CUSTOMER_EMAIL: 'payments@partner-platform.test' },
  });
  s = await walletPartner(p);
});
afterAll(async () => {
  await p.close();
  await paystack.close();
});

describe('wallet top-ups through Paystack', () => {
  it('initializes a Paystack transaction, credits on success through its signed webhook, once', async () => {
    const t = await initiate(s, 75.25);
    expect(t.checkout_url).toContain(paystack.url);
    expect(
      JSON.parse(paystack.requests.find((r) => r.path === '/transaction/initialize')!.body),
    ).toMatchObject({ amount: 7525, currency: 'GHS', email: 'payments@partner-platform.test' });
    expect((await verify(s, t.client_reference)).body.data).toEqual({
      credited: false,
      state: 'pending',
      verification_status: 'abandoned',
    });
    paystack.pay(theirs(t.client_reference));
    const hook = `${p.url}/webhooks/payments/paystack`;
    const cb = await paystack.sendWebhook(hook, 'charge.success', theirs(t.client_reference));
    expect(cb.status).toBe(200);
    expect(await balance(s)).toBe(75.25);
    expect(
      (await paystack.sendWebhook(hook, 'charge.success', theirs(t.client_reference))).status,
    ).toBe(200);
    expect(await balance(s)).toBe(75.25);
    expect((await verify(s, t.client_reference)).body.data).toMatchObject({
      credited: true,
      state: 'already_credited',
      amount_ghs: 75.25,
    });
    await expectLedgerConsistent(p);
  });

  it('refuses a webhook with a bad signature, crediting nothing; verify still credits what Paystack confirms', async () => {
    const before = await balance(s);
    const t = await initiate(s, 50);
    paystack.pay(theirs(t.client_reference), 4000);
    const forged = await paystack.sendWebhook(
      `${p.url}/webhooks/payments/paystack`,
      'charge.success',
      theirs(t.client_reference),
      'sk_test_forger',
    );
    expect(forged.status).toBe(400);
    expect(await balance(s)).toBe(before);
    expect((await verify(s, t.client_reference)).body.data).toMatchObject({
      state: 'credited',
      amount_ghs: 40,
    });
    expect(await balance(s)).toBeCloseTo(before + 40, 2);
  });

  it('credits a payment made on the hosted page, announced by the webhook Paystack sends', async () => {
    paystack.webhookUrl = `${p.url}/webhooks/payments/paystack`;
    const before = await balance(s);
    const t = await initiate(s, 60);
    const page = await fetch(t.checkout_url);
    expect(await page.text()).toContain('GHS 60.00');
    const paid = await fetch(`${t.checkout_url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toContain(`reference=${theirs(t.client_reference)}`);
    await expect.poll(() => balance(s)).toBeCloseTo(before + 60, 2);
  });

  it('answers 502 GATEWAY_ERROR when Paystack times out or fails, changing nothing', async () => {
    const before = await balance(s);
    for (const kind of ['500', 'timeout'] as const) {
      paystack.failNext(kind);
      const res = await s.client.send<any>('POST', '/api/v1/delivery/wallet.topup.initiate', {
        body: { amount_ghs: 30 },
      });
      expect([res.status, res.body.code], kind).toEqual([502, 'GATEWAY_ERROR']);
    }
    expect(await balance(s)).toBe(before);
  });
});
