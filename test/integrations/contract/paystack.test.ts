import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  canRefund,
  GatewayError,
  type CheckoutRequest,
} from '../../../src/integrations/payments/gateway.ts';
import { HubtelGateway } from '../../../src/integrations/payments/hubtel.ts';
import { PaystackGateway } from '../../../src/integrations/payments/paystack.ts';
import { paystackSignature } from '../../../src/integrations/payments/paystack-client.ts';
import { startFakePaystack, type FakePaystack } from '../../fakes/paystack.ts';

let fake: FakePaystack;
let gateway: PaystackGateway;
const TIMEOUT_MS = 400;

let n = 0;
function checkoutRequest(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  n += 1;
  return {
    clientReference: `serviceD_WA${n.toString(16).padStart(16, '0')}`,
    amountPesewas: 1999,
    description: 'Delivery wallet top-up',
    callbackUrl: 'https://api.example.test/webhooks/payments/paystack',
    returnUrl: 'https://partner.example.test/done',
    cancellationUrl: 'https://partner.example.test/cancelled',
    ...overrides,
  };
}

async function gatewayError(promise: Promise<unknown>): Promise<GatewayError> {
  const err = await promise.then(
    () => expect.fail('expected a GatewayError'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  expect((err as Error).message).not.toContain(fake.secretKey);
  return err as GatewayError;
}

function signed(
  body: unknown,
  key = fake.secretKey,
): { headers: Record<string, string>; raw: Buffer } {
  const raw = Buffer.from(JSON.stringify(body));
  return { headers: { 'x-paystack-signature': paystackSignature(key, raw) }, raw };
}

beforeEach(async () => {
  fake = await startFakePaystack();
  gateway = new PaystackGateway({
    secretKey: fake.secretKey,
    baseUrl: `${fake.url}/`,
    timeoutMs: TIMEOUT_MS,
    customerEmail: 'payments@example.test',
  });
});
afterEach(() => fake.close());

describe('PaystackGateway collections', () => {
  it('initializes a GHS transaction in pesewas with Bearer auth, carrying our reference with - for _', async () => {
    const req = checkoutRequest();
    const checkout = await gateway.createCheckout(req);
    const sent = fake.requests.at(-1)!;
    expect([sent.method, sent.path, sent.headers.authorization]).toEqual([
      'POST',
      '/transaction/initialize',
      `Bearer ${fake.secretKey}`,
    ]);
    const reference = req.clientReference.replace('_', '-');
    expect(JSON.parse(sent.body)).toMatchObject({
      email: 'payments@example.test',
      amount: 1999,
      currency: 'GHS',
      reference,
      callback_url: req.returnUrl,
    });
    const tx = fake.transactions.get(reference)!;
    expect(checkout).toEqual({
      checkoutId: tx.accessCode,
      checkoutUrl: `${fake.url}/checkout/${tx.accessCode}`,
    });
  });

  it('refuses bad references and amounts before sending', async () => {
    await expect(
      gateway.createCheckout(checkoutRequest({ clientReference: 'has-dash' })),
    ).rejects.toBeInstanceOf(RangeError);
    await expect(
      gateway.createCheckout(checkoutRequest({ amountPesewas: 10.5 })),
    ).rejects.toBeInstanceOf(RangeError);
    expect(fake.requests).toHaveLength(0);
  });

  it('verifies: abandoned is pending, success is paid with the confirmed amount, failed and reversed are failed', async () => {
    const req = checkoutRequest({ amountPesewas: 5000 });
    const ref = { clientReference: req.clientReference, checkoutId: null };
    expect(await gateway.checkStatus(ref)).toEqual({
      state: 'pending',
      rawStatus: 'not_found',
      amountPesewas: null,
    });
    await gateway.createCheckout(req);
    expect(await gateway.checkStatus(ref)).toEqual({
      state: 'pending',
      rawStatus: 'abandoned',
      amountPesewas: null,
    });
    expect(fake.requests.at(-1)!.path).toBe(
      `/transaction/verify/${req.clientReference.replace('_', '-')}`,
    );
    fake.pay(req.clientReference.replace('_', '-'), 4000);
    expect(await gateway.checkStatus(ref)).toEqual({
      state: 'paid',
      rawStatus: 'success',
      amountPesewas: 4000,
    });
    for (const status of ['failed', 'reversed']) {
      fake.transactions.get(req.clientReference.replace('_', '-'))!.status = status;
      expect(await gateway.checkStatus(ref)).toMatchObject({ state: 'failed', rawStatus: status });
    }
  });

  it('never credits an answer it cannot trust: an amount that is not whole pesewas, another currency, another reference', async () => {
    const req = checkoutRequest();
    const ref = { clientReference: req.clientReference, checkoutId: null };
    await gateway.createCheckout(req);
    const tx = fake.transactions.get(req.clientReference.replace('_', '-'))!;
    fake.pay(tx.reference, 10.5);
    expect((await gatewayError(gateway.checkStatus(ref))).message).toMatch(
      /without a readable GHS amount/,
    );
    fake.pay(tx.reference);
    tx.reference = 'serviceD-WAother';
    expect((await gatewayError(gateway.checkStatus(ref))).message).toMatch(/another reference/);
  });

  it('answers GatewayError on a timeout, a 500 and a wrong key, without leaking the key', async () => {
    const req = checkoutRequest();
    fake.failNext('timeout');
    const t0 = performance.now();
    expect((await gatewayError(gateway.createCheckout(req))).message).toContain(
      `no answer within ${TIMEOUT_MS} ms`,
    );
    expect(performance.now() - t0).toBeLessThan(TIMEOUT_MS + 250);
    fake.failNext('500');
    expect(
      (
        await gatewayError(
          gateway.checkStatus({ clientReference: req.clientReference, checkoutId: null }),
        )
      ).message,
    ).toMatch(/HTTP 500/);
    const wrong = new PaystackGateway({
      secretKey: 'sk_test_wrong',
      baseUrl: fake.url,
      timeoutMs: TIMEOUT_MS,
      customerEmail: 'a@b.test',
    });
    expect((await gatewayError(wrong.createCheckout(req))).message).toMatch(/HTTP 401/);
  });

  it('reads a charge webhook signed with the secret key, and nothing with a bad or missing signature', async () => {
    const body = {
      event: 'charge.success',
      data: { reference: 'serviceD-WA00000000000000ff', status: 'success', amount: 100 },
    };
    const good = signed(body);
    expect(gateway.parseCallback(good.headers, good.raw)).toEqual({
      clientReference: 'serviceD_WA00000000000000ff',
      rawStatus: 'success',
    });
    expect(gateway.parseCallback(signed(body, 'sk_test_other').headers, good.raw)).toBeNull();
    expect(gateway.parseCallback({}, good.raw)).toBeNull();
    expect(gateway.parseCallback({ 'x-paystack-signature': 'ab' }, good.raw)).toBeNull();
    // The body was changed after signing.
    expect(
      gateway.parseCallback(
        good.headers,
        Buffer.from(JSON.stringify({ ...body, data: { ...body.data, reference: 'other' } })),
      ),
    ).toBeNull();
    // Signed, but about a transfer: not a payment callback.
    const transfer = signed({
      event: 'transfer.success',
      data: { reference: 'po_0000000000000001' },
    });
    expect(gateway.parseCallback(transfer.headers, transfer.raw)).toBeNull();
  });
});

describe('PaystackGateway refunds', () => {
  it('refunds part of a paid transaction through POST /refund, and Hubtel offers none', async () => {
    const req = checkoutRequest({ amountPesewas: 3000 });
    await gateway.createCheckout(req);
    fake.pay(req.clientReference.replace('_', '-'));
    expect(canRefund(gateway)).toBe(true);
    const outcome = await gateway.refund(req.clientReference, 1000);
    expect(outcome).toEqual({
      state: 'pending',
      providerReference: String(fake.refunds[0]!.id),
      rawStatus: 'pending',
    });
    expect(JSON.parse(fake.requests.at(-1)!.body)).toEqual({
      transaction: req.clientReference.replace('_', '-'),
      amount: 1000,
      currency: 'GHS',
    });
    // More than is left is refused by Paystack: a GatewayError, nothing refunded.
    await gatewayError(gateway.refund(req.clientReference, 2500));
    expect(fake.refunds).toHaveLength(1);
    expect(
      canRefund(
        new HubtelGateway({
          apiId: 'a',
          apiKey: 'b',
          merchantAccountNumber: 'c',
          checkoutBaseUrl: 'http://x',
          statusBaseUrl: 'http://x',
          timeoutMs: 1,
        }),
      ),
    ).toBe(false);
  });
});

describe('the Paystack webhook URL', () => {
  it('hands signed events that are not payments (transfers) to another reader, and refuses them when none takes them', async () => {
    const { default: Fastify } = await import('fastify');
    const { keepRawBodies } = await import('../../../src/platform/http/body.ts');
    const { registerPaymentCallbacks } = await import(
      '../../../src/integrations/payments/callbacks.ts'
    );
    const taken: string[] = [];
    const app = Fastify();
    keepRawBodies(app, 64 * 1024);
    registerPaymentCallbacks(
      app,
      [gateway],
      [async (ref) => void taken.push(`payment ${ref}`)],
      async (name, headers, raw) => {
        const body = JSON.parse(raw.toString('utf8')) as { event: string };
        if (
          name !== 'paystack' ||
          !headers['x-paystack-signature'] ||
          !body.event.startsWith('transfer.')
        )
          return false;
        taken.push(body.event);
        return true;
      },
    );
    try {
      const post = (body: unknown) => {
        const { headers, raw } = signed(body);
        return app.inject({
          method: 'POST',
          url: '/webhooks/payments/paystack',
          headers: { ...headers, 'content-type': 'application/json' },
          payload: raw,
        });
      };
      expect(
        (await post({ event: 'transfer.success', data: { reference: 'po_0000000000000001' } }))
          .statusCode,
      ).toBe(200);
      expect(
        (
          await post({
            event: 'charge.success',
            data: { reference: 'serviceD-WA0000000000000001', status: 'success' },
          })
        ).statusCode,
      ).toBe(200);
      expect((await post({ event: 'subscription.create', data: {} })).statusCode).toBe(400);
      expect(taken).toEqual(['transfer.success', 'payment serviceD_WA0000000000000001']);
    } finally {
      await app.close();
    }
  });
});

describe('createGateways with PAYMENT_GATEWAY=paystack', () => {
  it("collects production money through Paystack, staging through the sandbox, naming the deployment's address when no email is set", async () => {
    const { createGateways } = await import('../../../src/integrations/payments/index.ts');
    const { paymentSettings } = await import('../../../src/integrations/payments/settings.ts');
    const problems: string[] = [];
    const settings = paymentSettings(
      {
        PAYMENT_GATEWAY: 'paystack',
        PAYSTACK_SECRET_KEY: fake.secretKey,
        PAYSTACK_BASE_URL: fake.url,
      },
      problems,
    );
    expect(problems).toEqual([]);
    const gateways = createGateways(settings, 'https://api.shop.example', {} as never, Date.now);
    expect([
      gateways.forPayment('production').name,
      gateways.forPayment('staging').name,
      gateways.recorded('paystack').name,
    ]).toEqual(['paystack', 'sandbox', 'paystack']);
    expect(gateways.summary).toContain('production through paystack');
    await gateways.forPayment('production').createCheckout(checkoutRequest());
    expect(JSON.parse(fake.requests.at(-1)!.body).email).toBe('payments@api.shop.example');
  });
});
