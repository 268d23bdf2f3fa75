/**
 * A local stand-in for Hubtel's Online Checkout and Transaction Status Check, speaking the same HTTP
 * protocol as hubtel.ts expects (see the protocol notes there). One server plays both hosts, so use
 * its url as both checkoutBaseUrl and statusBaseUrl. Used by tests; in development it also serves a
 * bare checkout page with Pay and Decline buttons that then POST the callback, as Hubtel does.
 *
 * Where Hubtel's behaviour is undocumented (error bodies, unknown references, failed-payment
 * callbacks) the fake picks something plausible; those shapes are not verified against Hubtel.
 */
import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { ghsToPesewas, pesewasToGhs } from '../../src/platform/money.ts';

export interface FakeHubtelPayment {
  checkoutId: string;
  clientReference: string;
  /** What the initiate request asked for. */
  amountPesewas: number;
  description: string;
  callbackUrl: string;
  returnUrl: string;
  cancellationUrl: string;
  /** Hubtel's status word: Paid, Unpaid, Refunded (tests may set anything else). */
  status: string;
  /** What the payer actually paid, once paid. */
  paidPesewas: number | null;
  declined: boolean;
  transactionId: string;
  date: string;
}

export interface FakeHubtelRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
export type FakeHubtelFailure = 'timeout' | '500' | 'garbage';

export interface FakeHubtelOptions {
  apiId?: string;
  apiKey?: string;
  merchantAccountNumber?: string;
}

export interface FakeHubtel {
  url: string;
  apiId: string;
  apiKey: string;
  merchantAccountNumber: string;
  /** Keyed by clientReference. */
  payments: Map<string, FakeHubtelPayment>;
  /** Every request the fake received, in order, for assertions. */
  requests: FakeHubtelRequest[];
  /** The payer pays; amountPesewas defaults to the amount asked for. */
  pay(clientReference: string, amountPesewas?: number): void;
  /** The payer declines: Hubtel keeps reporting Unpaid. */
  decline(clientReference: string): void;
  refund(clientReference: string): void;
  /** The next API request (after authentication) fails this way. Queued, one per call. */
  failNext(kind: FakeHubtelFailure): void;
  /** POSTs Hubtel's callback body for the payment to callbackUrl (default: the one it was created with). */
  sendCallback(
    clientReference: string,
    callbackUrl?: string,
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

export async function startFakeHubtel(opts: FakeHubtelOptions = {}): Promise<FakeHubtel> {
  const apiId = opts.apiId ?? 'fake-api-id';
  const apiKey = opts.apiKey ?? 'fake-api-key-0123456789';
  const merchantAccountNumber = opts.merchantAccountNumber ?? '11684';
  const expectedAuth = `Basic ${Buffer.from(`${apiId}:${apiKey}`).toString('base64')}`;
  const payments = new Map<string, FakeHubtelPayment>();
  const requests: FakeHubtelRequest[] = [];
  const failures: FakeHubtelFailure[] = [];
  let url = '';

  const find = (clientReference: string): FakeHubtelPayment => {
    const p = payments.get(clientReference);
    if (!p) throw new Error(`fake Hubtel: no checkout for ${clientReference}`);
    return p;
  };
  const pay = (clientReference: string, amountPesewas?: number): void => {
    const p = find(clientReference);
    p.status = 'Paid';
    p.paidPesewas = amountPesewas ?? p.amountPesewas;
    p.declined = false;
  };
  const decline = (clientReference: string): void => {
    const p = find(clientReference);
    p.status = 'Unpaid';
    p.declined = true;
  };
  const sendCallback = async (
    clientReference: string,
    callbackUrl?: string,
  ): Promise<{ status: number; body: string }> => {
    const p = find(clientReference);
    const res = await fetch(callbackUrl ?? p.callbackUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' },
      body: JSON.stringify(callbackBody(p)),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: await res.text() };
  };

  const server = createServer((req, res) => {
    readBody(req)
      .then((body) => {
        const path = req.url ?? '/';
        requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
        return route(req.method ?? 'GET', new URL(path, 'http://fake'), req.headers, body, res);
      })
      .catch(() => send(res, 400, { message: 'Bad request' }));
  });

  function route(
    method: string,
    u: URL,
    headers: IncomingHttpHeaders,
    body: string,
    res: ServerResponse,
  ): void {
    const page = /^\/pay\/([0-9a-f]{32})(?:\/(direct|pay|decline))?$/.exec(u.pathname);
    if (page) return checkoutPage(method, page[1] ?? '', page[2], res);
    const isInitiate = u.pathname === '/items/initiate';
    const status = /^\/transactions\/([^/]+)\/status$/.exec(u.pathname);
    if (!isInitiate && !status) return send(res, 404, { message: 'Not found' });
    if (headers.authorization !== expectedAuth) return send(res, 401, { message: 'Unauthorized' });
    const failure = failures.shift();
    if (failure === 'timeout') return; // never answers; close() drops the connection
    if (failure === '500') return send(res, 500, { message: 'Internal server error' });
    if (failure === 'garbage') {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>Service Unavailable</html>');
      return;
    }
    if (isInitiate && method === 'POST') return initiate(body, res);
    if (status && method === 'GET') {
      if (decodeURIComponent(status[1] ?? '') !== merchantAccountNumber)
        return send(res, 403, { message: 'Forbidden' });
      const p = payments.get(u.searchParams.get('clientReference') ?? '');
      if (!p)
        return send(res, 404, {
          message: 'Transaction not found',
          responseCode: '4040',
          data: null,
        });
      return send(res, 200, { message: 'Successful', responseCode: '0000', data: statusData(p) });
    }
    send(res, 405, { message: 'Method not allowed' });
  }

  function initiate(text: string, res: ServerResponse): void {
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      return send(res, 400, {
        responseCode: '4000',
        status: 'Error',
        message: 'Request body must be JSON',
      });
    }
    const errors: { field: string; message: string }[] = [];
    const amount = typeof body.totalAmount === 'number' ? ghsToPesewas(body.totalAmount) : null;
    if (amount === null || amount <= 0)
      errors.push({
        field: 'totalAmount',
        message: 'must be greater than 0 with at most 2 decimals',
      });
    if (typeof body.description !== 'string' || !body.description)
      errors.push({ field: 'description', message: 'is required' });
    for (const field of ['callbackUrl', 'returnUrl', 'cancellationUrl']) {
      if (!isUrl(body[field])) errors.push({ field, message: 'must be an absolute URL' });
    }
    if (body.merchantAccountNumber !== merchantAccountNumber)
      errors.push({ field: 'merchantAccountNumber', message: 'is not yours' });
    const ref = body.clientReference;
    if (typeof ref !== 'string' || ref.length === 0 || ref.length > 32) {
      errors.push({ field: 'clientReference', message: 'must be 1 to 32 characters' });
    } else if (payments.has(ref)) {
      errors.push({ field: 'clientReference', message: 'must be unique' });
    }
    if (errors.length > 0 || amount === null || typeof ref !== 'string') {
      return send(res, 400, {
        responseCode: '4000',
        status: 'Error',
        message: 'Validation errors',
        data: errors,
      });
    }
    const checkoutId = randomBytes(16).toString('hex');
    payments.set(ref, {
      checkoutId,
      clientReference: ref,
      amountPesewas: amount,
      description: String(body.description),
      callbackUrl: String(body.callbackUrl),
      returnUrl: String(body.returnUrl),
      cancellationUrl: String(body.cancellationUrl),
      status: 'Unpaid',
      paidPesewas: null,
      declined: false,
      transactionId: randomBytes(16).toString('hex'),
      date: new Date().toISOString(),
    });
    send(res, 200, {
      responseCode: '0000',
      status: 'Success',
      data: {
        checkoutUrl: `${url}/pay/${checkoutId}`,
        checkoutId,
        clientReference: ref,
        message: '',
        checkoutDirectUrl: `${url}/pay/${checkoutId}/direct`,
      },
    });
  }

  /** The customer-facing page, for development: no auth, like Hubtel's pay.hubtel.com. */
  function checkoutPage(
    method: string,
    checkoutId: string,
    action: string | undefined,
    res: ServerResponse,
  ): void {
    const p = [...payments.values()].find((x) => x.checkoutId === checkoutId);
    if (!p) return send(res, 404, { message: 'Checkout not found' });
    if (method === 'POST' && (action === 'pay' || action === 'decline')) {
      if (action === 'pay') pay(p.clientReference);
      else decline(p.clientReference);
      sendCallback(p.clientReference).catch(() => undefined); // best effort, like any webhook
      res.writeHead(303, { Location: action === 'pay' ? p.returnUrl : p.cancellationUrl }).end();
      return;
    }
    const amount = pesewasToGhs(p.amountPesewas).toFixed(2);
    res
      .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><title>Fake Hubtel checkout</title><p>${escapeHtml(p.description)}: GHS ${amount} (${p.status})</p>` +
          `<form method="post" action="/pay/${checkoutId}/pay"><button>Pay</button></form>` +
          `<form method="post" action="/pay/${checkoutId}/decline"><button>Decline</button></form>`,
      );
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    apiId,
    apiKey,
    merchantAccountNumber,
    payments,
    requests,
    pay,
    decline,
    refund: (clientReference) => {
      find(clientReference).status = 'Refunded';
    },
    failNext: (kind) => {
      failures.push(kind);
    },
    sendCallback,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // includes requests held open by failNext('timeout')
      }),
  };
}

/** Hubtel's documented success callback; the failure variant is a guess (Hubtel publishes none). */
function callbackBody(p: FakeHubtelPayment): Record<string, unknown> {
  const ok = p.status === 'Paid';
  return {
    ResponseCode: ok ? '0000' : '2001',
    Status: ok ? 'Success' : 'Failed',
    Data: {
      CheckoutId: p.checkoutId,
      SalesInvoiceId: p.transactionId,
      ClientReference: p.clientReference,
      Status: ok ? 'Success' : 'Failed',
      Amount: pesewasToGhs(p.paidPesewas ?? p.amountPesewas),
      CustomerPhoneNumber: '233240000000',
      PaymentDetails: {
        MobileMoneyNumber: '233240000000',
        PaymentType: 'mobilemoney',
        Channel: 'mtn-gh',
      },
      Description: ok
        ? 'The MTN Mobile Money payment has been approved and processed successfully.'
        : 'The MTN Mobile Money payment was not completed.',
    },
  };
}

function statusData(p: FakeHubtelPayment): Record<string, unknown> {
  const gross = p.paidPesewas ?? p.amountPesewas;
  const charges = Math.round(gross * 0.02); // a fee, so tests can tell amount from amountAfterCharges
  return {
    date: p.date,
    status: p.status,
    transactionId: p.transactionId,
    externalTransactionId: p.status === 'Paid' ? '0000006824852622' : null,
    paymentMethod: 'mobilemoney',
    clientReference: p.clientReference,
    currencyCode: null,
    amount: pesewasToGhs(gross),
    charges: pesewasToGhs(charges),
    amountAfterCharges: pesewasToGhs(gross - charges),
    isFulfilled: null,
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res
    .writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' })
    .end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function isUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The settings that point the platform's Hubtel adapter at this fake (a generous timeout: see paystackEnv). */
export function hubtelEnv(fake: FakeHubtel, timeoutMs = 2_000): Record<string, string> {
  return {
    PAYMENT_GATEWAY: 'hubtel',
    HUBTEL_API_ID: fake.apiId,
    HUBTEL_API_KEY: fake.apiKey,
    HUBTEL_MERCHANT_ACCOUNT: fake.merchantAccountNumber,
    HUBTEL_CHECKOUT_URL: fake.url,
    HUBTEL_STATUS_URL: fake.url,
    HUBTEL_TIMEOUT_MS: String(timeoutMs),
  };
}
