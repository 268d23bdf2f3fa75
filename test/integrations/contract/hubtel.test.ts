import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError, type CheckoutRequest } from '../../../src/integrations/payments/gateway.ts';
import { startFakeHubtel, type FakeHubtel } from '../../fakes/hubtel.ts';
import { HubtelGateway, type HubtelConfig } from '../../../src/integrations/payments/hubtel.ts';

let fake: FakeHubtel;
let gateway: HubtelGateway;
const TIMEOUT_MS = 400;

function configFor(f: FakeHubtel, overrides: Partial<HubtelConfig> = {}): HubtelConfig {
  return {
    apiId: f.apiId,
    apiKey: f.apiKey,
    merchantAccountNumber: f.merchantAccountNumber,
    checkoutBaseUrl: f.url,
    statusBaseUrl: `${f.url}/`,
    timeoutMs: TIMEOUT_MS,
    ...overrides,
  };
}

let n = 0;
function checkoutRequest(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  n += 1;
  return {
    clientReference: `serviceD_WA${n.toString(16).padStart(16, '0')}`,
    amountPesewas: 1999,
    description: 'Delivery wallet top-up',
    callbackUrl: 'https://api.example.test/hooks/hubtel',
    returnUrl: 'https://partner.example.test/done',
    cancellationUrl: 'https://partner.example.test/cancelled',
    ...overrides,
  };
}

/** Awaits a GatewayError and checks that it leaks no credentials. */
async function gatewayError(promise: Promise<unknown>): Promise<GatewayError> {
  const err = await promise.then(
    () => expect.fail('expected a GatewayError'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  const message = (err as GatewayError).message;
  expect(message).not.toContain(fake.apiKey);
  expect(message).not.toContain(Buffer.from(`${fake.apiId}:${fake.apiKey}`).toString('base64'));
  return err as GatewayError;
}

beforeEach(async () => {
  fake = await startFakeHubtel();
  gateway = new HubtelGateway(configFor(fake));
});
afterEach(async () => {
  await fake.close();
});

describe('HubtelGateway.createCheckout', () => {
  it('sends Hubtel the documented body with Basic credentials and returns its checkout', async () => {
    const req = checkoutRequest();
    const checkout = await gateway.createCheckout(req);

    const received = fake.requests.at(-1);
    expect(received?.method).toBe('POST');
    expect(received?.path).toBe('/items/initiate');
    expect(received?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${fake.apiId}:${fake.apiKey}`).toString('base64')}`,
    );
    expect(received?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received?.body ?? '')).toEqual({
      totalAmount: 19.99,
      description: req.description,
      callbackUrl: req.callbackUrl,
      returnUrl: req.returnUrl,
      cancellationUrl: req.cancellationUrl,
      merchantAccountNumber: fake.merchantAccountNumber,
      clientReference: req.clientReference,
    });
    expect(received?.body).toContain('"totalAmount":19.99,'); // exact decimal text, no float noise

    const stored = fake.payments.get(req.clientReference);
    expect(stored?.amountPesewas).toBe(1999);
    expect(checkout).toEqual({
      checkoutId: stored?.checkoutId,
      checkoutUrl: `${fake.url}/pay/${stored?.checkoutId}`,
    });
  });

  it('refuses references over 32 characters and non-positive amounts before sending', async () => {
    await expect(
      gateway.createCheckout(checkoutRequest({ clientReference: 'x'.repeat(33) })),
    ).rejects.toBeInstanceOf(RangeError);
    await expect(
      gateway.createCheckout(checkoutRequest({ amountPesewas: 0 })),
    ).rejects.toBeInstanceOf(RangeError);
    expect(fake.requests).toHaveLength(0);
  });

  it('turns a Hubtel 4xx validation answer into a GatewayError', async () => {
    const req = checkoutRequest();
    await gateway.createCheckout(req);
    const err = await gatewayError(gateway.createCheckout(req)); // clientReference must be unique
    expect(err.message).toMatch(/HTTP 400 responseCode 4000/);
  });

  it('reports wrong credentials as a GatewayError without echoing them', async () => {
    const wrong = new HubtelGateway(configFor(fake, { apiKey: 'not-the-key-987654' }));
    const err = await gatewayError(wrong.createCheckout(checkoutRequest()));
    expect(err.message).toMatch(/HTTP 401/);
    expect(err.message).not.toContain('not-the-key-987654');
  });
});

describe('HubtelGateway.checkStatus', () => {
  async function started(
    amountPesewas = 1999,
  ): Promise<{ clientReference: string; checkoutId: string }> {
    const req = checkoutRequest({ amountPesewas });
    const { checkoutId } = await gateway.createCheckout(req);
    return { clientReference: req.clientReference, checkoutId };
  }

  it('maps Unpaid to pending and queries by clientReference with Basic credentials', async () => {
    const ref = await started();
    expect(await gateway.checkStatus(ref)).toEqual({
      state: 'pending',
      rawStatus: 'Unpaid',
      amountPesewas: null,
    });
    const received = fake.requests.at(-1);
    expect(received?.method).toBe('GET');
    expect(received?.path).toBe(
      `/transactions/${fake.merchantAccountNumber}/status?clientReference=${ref.clientReference}`,
    );
    expect(received?.headers.authorization).toMatch(/^Basic /);
  });

  it('maps Paid to paid with the gross amount Hubtel confirms, converted exactly', async () => {
    const ref = await started(3000);
    fake.pay(ref.clientReference);
    expect(await gateway.checkStatus(ref)).toEqual({
      state: 'paid',
      rawStatus: 'Paid',
      amountPesewas: 3000,
    });
    // The confirmed amount wins over the amount asked for (D7 credits what the gateway confirmed).
    fake.pay(ref.clientReference, 1999);
    expect(await gateway.checkStatus(ref)).toEqual({
      state: 'paid',
      rawStatus: 'Paid',
      amountPesewas: 1999,
    });
  });

  it('keeps a declined checkout pending, maps Refunded to failed, and keeps unknown words', async () => {
    const ref = await started();
    fake.decline(ref.clientReference);
    expect(await gateway.checkStatus(ref)).toMatchObject({ state: 'pending', rawStatus: 'Unpaid' });
    fake.refund(ref.clientReference);
    expect(await gateway.checkStatus(ref)).toEqual({
      state: 'failed',
      rawStatus: 'Refunded',
      amountPesewas: null,
    });
    const p = fake.payments.get(ref.clientReference);
    if (p) p.status = 'Expired';
    expect(await gateway.checkStatus(ref)).toEqual({
      state: 'pending',
      rawStatus: 'Expired',
      amountPesewas: null,
    });
  });

  it('answers GatewayError within timeoutMs when Hubtel does not answer', async () => {
    const ref = await started();
    fake.failNext('timeout');
    const t0 = performance.now();
    const err = await gatewayError(gateway.checkStatus(ref));
    expect(performance.now() - t0).toBeLessThan(TIMEOUT_MS + 250);
    expect(err.message).toContain(`no answer within ${TIMEOUT_MS} ms`);
  });

  it('answers GatewayError on a 500, on garbage, and on an unknown reference', async () => {
    const ref = await started();
    fake.failNext('500');
    expect((await gatewayError(gateway.checkStatus(ref))).message).toMatch(/HTTP 500/);
    fake.failNext('garbage');
    expect((await gatewayError(gateway.checkStatus(ref))).message).toMatch(/unreadable/);
    await gatewayError(
      gateway.checkStatus({ clientReference: 'serviceD_WA0000000000000000', checkoutId: null }),
    );
  });

  it('answers GatewayError on wrong credentials and when Hubtel is unreachable', async () => {
    const ref = await started();
    const wrong = new HubtelGateway(configFor(fake, { apiId: 'someone-else' }));
    expect((await gatewayError(wrong.checkStatus(ref))).message).toMatch(/HTTP 401/);
    const url = fake.url;
    await fake.close();
    const gone = new HubtelGateway(configFor(fake, { checkoutBaseUrl: url, statusBaseUrl: url }));
    expect((await gatewayError(gone.checkStatus(ref))).message).toMatch(/network failure/);
    fake = await startFakeHubtel(); // for afterEach
  });

  it('refuses a Paid answer without a readable amount', async () => {
    const ref = await started();
    fake.pay(ref.clientReference, 1999);
    const p = fake.payments.get(ref.clientReference);
    if (p) p.paidPesewas = 0;
    await gatewayError(gateway.checkStatus(ref));
  });
});

describe('HubtelGateway.parseCallback', () => {
  const body = (value: unknown): Buffer =>
    Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
  const documented = {
    ResponseCode: '0000',
    Status: 'Success',
    Data: {
      CheckoutId: '59e2fbbff4e443b98e09346881ac7e9a',
      SalesInvoiceId: 'e96ccfb4746045bba13f425bd573a31c',
      ClientReference: 'serviceD_WA0123456789abcdef',
      Status: 'Success',
      Amount: 0.5,
      CustomerPhoneNumber: '233242825109',
      PaymentDetails: {
        MobileMoneyNumber: '233242825109',
        PaymentType: 'mobilemoney',
        Channel: 'mtn-gh',
      },
      Description: 'The MTN Mobile Money payment has been approved and processed successfully.',
    },
  };

  it('reads the documented body', () => {
    expect(gateway.parseCallback({}, body(documented))).toEqual({
      clientReference: 'serviceD_WA0123456789abcdef',
      rawStatus: 'Success',
    });
  });

  it('returns null for non-JSON, non-objects and a missing or foreign ClientReference', () => {
    expect(gateway.parseCallback({}, body('not json'))).toBeNull();
    expect(gateway.parseCallback({}, body('[1,2]'))).toBeNull();
    expect(
      gateway.parseCallback(
        {},
        body({ ...documented, Data: { ...documented.Data, ClientReference: undefined } }),
      ),
    ).toBeNull();
    expect(
      gateway.parseCallback(
        {},
        body({ ...documented, Data: { ...documented.Data, ClientReference: 'x'.repeat(33) } }),
      ),
    ).toBeNull();
    expect(gateway.parseCallback({}, body({ ResponseCode: '0000' }))).toBeNull();
  });

  it('receives the fake callback POST in Hubtel shape', async () => {
    const received: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const req = checkoutRequest({ amountPesewas: 5000 });
      const { checkoutId } = await gateway.createCheckout(req);
      fake.pay(req.clientReference);
      const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/hubtel`;
      expect(await fake.sendCallback(req.clientReference, callbackUrl)).toEqual({
        status: 200,
        body: 'ok',
      });

      expect(received).toHaveLength(1);
      const got = received[0];
      expect(got?.headers['content-type']).toBe('application/json');
      const json = JSON.parse(got?.body.toString() ?? '') as typeof documented;
      expect(Object.keys(json)).toEqual(['ResponseCode', 'Status', 'Data']);
      expect(Object.keys(json.Data)).toEqual(Object.keys(documented.Data));
      expect(json).toMatchObject({
        ResponseCode: '0000',
        Status: 'Success',
        Data: {
          CheckoutId: checkoutId,
          ClientReference: req.clientReference,
          Status: 'Success',
          Amount: 50,
        },
      });
      expect(gateway.parseCallback(got?.headers ?? {}, got?.body ?? Buffer.alloc(0))).toEqual({
        clientReference: req.clientReference,
        rawStatus: 'Success',
      });
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

describe('fake Hubtel', () => {
  it('validates initiate like Hubtel would and requires Basic credentials', async () => {
    const post = (
      body: unknown,
      auth = `Basic ${Buffer.from(`${fake.apiId}:${fake.apiKey}`).toString('base64')}`,
    ) =>
      fetch(`${fake.url}/items/initiate`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const good = {
      totalAmount: 30,
      description: 'top-up',
      callbackUrl: 'https://a.test/cb',
      returnUrl: 'https://a.test/r',
      cancellationUrl: 'https://a.test/c',
      merchantAccountNumber: fake.merchantAccountNumber,
      clientReference: 'ref-1',
    };
    expect((await post(good, 'Basic d3Jvbmc6d3Jvbmc=')).status).toBe(401);
    for (const bad of [
      { totalAmount: 1.234 },
      { totalAmount: 0 },
      { clientReference: 'x'.repeat(33) },
      { returnUrl: '' },
      { description: '' },
    ]) {
      const res = await post({ ...good, ...bad });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ responseCode: '4000' });
    }
    expect(await (await post(good)).json()).toMatchObject({
      responseCode: '0000',
      status: 'Success',
      data: { clientReference: 'ref-1', message: '' },
    });
  });
});
