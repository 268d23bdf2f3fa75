/**
 * A local stand-in for Paystack's API as paystack.ts and transfers/paystack.ts speak it (see the protocol
 * notes there): Bearer secret key, answers `{ status, message, data }`, amounts in pesewas, webhooks signed
 * with HMAC-SHA512 in `x-paystack-signature`. Transfers start `pending` (as Paystack's usually do) and a test
 * settles them; a repeated transfer reference is refused as Paystack refuses it and never pays twice.
 * For development it also serves the buyer's checkout page (Pay / Decline), which sends charge.success or
 * charge.failed to `webhookUrl` as Paystack sends events to the dashboard's webhook URL.
 * Error words are modelled on Paystack's documented error list, not copied from live answers.
 */
import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { paystackSignature } from '../../src/integrations/payments/paystack-client.ts';

export interface FakePaystackTransaction {
  id: number;
  reference: string;
  amount: number;
  email: string;
  callbackUrl: string;
  accessCode: string;
  status: string;
  paidAmount: number | null;
}
export interface FakePaystackTransfer {
  id: number;
  reference: string;
  amount: number;
  recipient: string;
  reason: string;
  status: string;
  transferCode: string;
  failure: string | null;
}
/** A refund: pending, processing, processed, failed or needs-attention; `reversed` with reversedAt when the payer's bank sent it back. */
export interface FakePaystackRefund {
  id: number;
  transaction: string;
  amount: number;
  status: string;
  reversedAt?: string | null;
}
export interface FakePaystackRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
/** timeout: never answers; drop: does the work, then never answers (the answer is lost); 500: fails; 429: rate limited. */
export type FakePaystackFailure = 'timeout' | 'drop' | '500' | '429';

export interface FakePaystack {
  url: string;
  secretKey: string;
  transactions: Map<string, FakePaystackTransaction>;
  transfers: Map<string, FakePaystackTransfer>;
  refunds: FakePaystackRefund[];
  requests: FakePaystackRequest[];
  /** Registered names for /bank/resolve, keyed `${bank_code}:${account_number}`; others cannot be resolved. */
  accountNames: Map<string, string>;
  /** Accounts that do not exist, keyed as accountNames: not resolved, and refused as transfer recipients. */
  unknownAccounts: Set<string>;
  /** Accounts whose transfers Paystack takes and fails at once (the receiving institution refuses them), keyed as accountNames. */
  refusingAccounts: Set<string>;
  /** Seconds a 429 answer asks to wait (its Retry-After header); undefined: no header. */
  retryAfterSeconds: number | undefined;
  /** The buyer pays (amount defaults to the one initialized). */
  pay(reference: string, amountPesewas?: number): void;
  /** Sets a transfer's final state: success, failed or reversed. */
  settleTransfer(
    reference: string,
    status: 'success' | 'failed' | 'reversed',
    failure?: string,
  ): void;
  /** New transfers start in this state (default pending; otp models an integration with OTP on). */
  newTransferStatus: string;
  /** The next API request (after authentication) to this path (any, by default) fails this way; queued, one per call. */
  failNext(kind: FakePaystackFailure, path?: string): void;
  /**
   * Until `release`, every request to `path` after the next `skip` ones is held: never answered, and with
   * `drop` handled first (a transfer is recorded). Counted in `held`, so a test can kill the caller while it waits.
   */
  hold(kind: 'timeout' | 'drop', path: string, skip?: number): void;
  release(): void;
  /** Requests held so far. */
  readonly held: number;
  /** Where the hosted page's payments are announced (the dashboard's webhook URL at Paystack). */
  webhookUrl: string | undefined;
  /** POSTs a signed webhook (charge.success for a transaction, transfer.<x> for a transfer) to url. */
  sendWebhook(
    url: string,
    event: string,
    reference: string,
    signWith?: string,
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

export async function startFakePaystack(
  secretKey = 'sk_test_fakepaystack0123456789',
): Promise<FakePaystack> {
  const transactions = new Map<string, FakePaystackTransaction>();
  const transfers = new Map<string, FakePaystackTransfer>();
  const recipients = new Map<string, string>();
  const refunds: FakePaystackRefund[] = [];
  const requests: FakePaystackRequest[] = [];
  const accountNames = new Map<string, string>();
  const unknownAccounts = new Set<string>();
  const refusingAccounts = new Set<string>();
  const accountOf = new Map<string, string>();
  let retryAfterSeconds: number | undefined;
  const failures: Array<{ kind: FakePaystackFailure; path: string | undefined }> = [];
  let holding: { kind: 'timeout' | 'drop'; path: string; skip: number } | undefined;
  let held = 0;
  let nextId = 1000;
  let url = '';
  const state: { newTransferStatus: string; webhookUrl: string | undefined } = {
    newTransferStatus: 'pending',
    webhookUrl: undefined,
  };

  const server = createServer((req, res) => {
    readBody(req)
      .then((body) => {
        const path = req.url ?? '/';
        requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
        route(req.method ?? 'GET', new URL(path, 'http://fake'), req.headers, body, res);
      })
      .catch(() => send(res, 400, { status: false, message: 'Bad request' }));
  });

  function route(
    method: string,
    u: URL,
    headers: IncomingHttpHeaders,
    text: string,
    res: ServerResponse,
  ): void {
    const page = /^\/checkout\/([0-9a-f]{16})(?:\/(pay|decline))?$/.exec(u.pathname);
    if (page) return checkoutPage(method, page[1] ?? '', page[2], res);
    if (headers.authorization !== `Bearer ${secretKey}`)
      return send(res, 401, { status: false, message: 'Invalid key' });
    const index = failures.findIndex((f) => f.path === undefined || f.path === u.pathname);
    const failure =
      holdNow(u.pathname) ?? (index < 0 ? undefined : failures.splice(index, 1)[0]?.kind);
    if (failure === 'timeout') return;
    if (failure === '500') return send(res, 500, { status: false, message: 'An error occurred' });
    if (failure === '429')
      return send(
        res,
        429,
        { status: false, message: 'Too many requests' },
        retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
      );
    let body: Record<string, unknown> = {};
    if (method === 'POST') {
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return send(res, 400, { status: false, message: 'Invalid JSON' });
      }
    }
    const [status, answer] = handle(method, u, body);
    if (failure !== 'drop') send(res, status, answer);
  }

  function holdNow(path: string): 'timeout' | 'drop' | undefined {
    if (holding?.path !== path) return undefined;
    if (holding.skip > 0) {
      holding.skip--;
      return undefined;
    }
    held++;
    return holding.kind;
  }

  function handle(method: string, u: URL, body: Record<string, unknown>): [number, unknown] {
    const p = u.pathname;
    const verify = /^\/transaction\/verify\/(.+)$/.exec(p);
    const transferVerify = /^\/transfer\/verify\/(.+)$/.exec(p);
    if (method === 'POST' && p === '/transaction/initialize') return initialize(body);
    if (method === 'GET' && verify) {
      const t = transactions.get(decodeURIComponent(verify[1] ?? ''));
      if (!t) return [400, { status: false, message: 'Transaction reference not found' }];
      return [200, { status: true, message: 'Verification successful', data: transactionData(t) }];
    }
    if (method === 'POST' && p === '/transferrecipient') return recipient(body);
    if (method === 'POST' && p === '/transfer') return transfer(body);
    if (method === 'POST' && p === '/transfer/bulk') return bulk(body);
    if (method === 'GET' && transferVerify) {
      const t = transfers.get(decodeURIComponent(transferVerify[1] ?? ''));
      if (!t) return [404, { status: false, message: 'Transfer not found' }];
      return [200, { status: true, message: 'Transfer retrieved', data: transferData(t) }];
    }
    if (method === 'GET' && p === '/bank/resolve') {
      const name = accountNames.get(
        `${u.searchParams.get('bank_code')}:${u.searchParams.get('account_number')}`,
      );
      if (!name)
        return [
          422,
          {
            status: false,
            message: 'Could not resolve account name. Check parameters or try again.',
          },
        ];
      return [
        200,
        {
          status: true,
          message: 'Account number resolved',
          data: {
            account_number: u.searchParams.get('account_number'),
            account_name: name,
            bank_id: 1,
          },
        },
      ];
    }
    if (method === 'POST' && p === '/refund') return refund(body);
    if (method === 'GET' && p === '/refund') {
      const t = [...transactions.values()].find(
        (x) => String(x.id) === u.searchParams.get('transaction'),
      );
      const listed = t ? refunds.filter((r) => r.transaction === t.reference).reverse() : [];
      return [
        200,
        {
          status: true,
          message: 'Refunds retrieved',
          data: listed.map((r) => ({
            id: r.id,
            amount: r.amount,
            currency: 'GHS',
            status: r.status,
            reversed_at: r.reversedAt ?? null,
          })),
        },
      ];
    }
    return [404, { status: false, message: 'Not found' }];
  }

  function initialize(body: Record<string, unknown>): [number, unknown] {
    const { reference, amount, email, currency } = body;
    if (typeof email !== 'string' || !email.includes('@'))
      return [400, { status: false, message: 'Invalid Email Address Passed' }];
    if (!Number.isSafeInteger(amount) || (amount as number) <= 0)
      return [400, { status: false, message: 'Invalid Amount Sent' }];
    if (currency !== 'GHS')
      return [400, { status: false, message: 'Currency not supported by merchant' }];
    if (typeof reference !== 'string' || !/^[A-Za-z0-9.=-]+$/.test(reference))
      return [400, { status: false, message: 'Invalid transaction reference' }];
    if (transactions.has(reference))
      return [400, { status: false, message: 'Duplicate Transaction Reference' }];
    const accessCode = randomBytes(8).toString('hex');
    transactions.set(reference, {
      id: nextId++,
      reference,
      amount: amount as number,
      email,
      callbackUrl: String(body.callback_url ?? ''),
      accessCode,
      status: 'abandoned',
      paidAmount: null,
    });
    return [
      200,
      {
        status: true,
        message: 'Authorization URL created',
        data: {
          authorization_url: `${url}/checkout/${accessCode}`,
          access_code: accessCode,
          reference,
        },
      },
    ];
  }

  function recipient(body: Record<string, unknown>): [number, unknown] {
    const { type, bank_code, account_number, name } = body;
    const codes = type === 'mobile_money' ? ['MTN', 'VOD', 'ATL'] : type === 'ghipss' ? null : [];
    if (codes?.length === 0) return [400, { status: false, message: 'Invalid recipient type' }];
    if (typeof bank_code !== 'string' || (codes && !codes.includes(bank_code)))
      return [400, { status: false, message: 'Unknown bank code' }];
    if (
      typeof account_number !== 'string' ||
      !/^\d{6,20}$/.test(account_number) ||
      typeof name !== 'string' ||
      !name
    ) {
      return [400, { status: false, message: 'Account number and name are required' }];
    }
    if (unknownAccounts.has(`${bank_code}:${account_number}`))
      return [400, { status: false, message: 'Cannot resolve account' }];
    // Paystack answers the existing recipient for the same account.
    const key = `${type}:${bank_code}:${account_number}`;
    const code = recipients.get(key) ?? `RCP_${randomBytes(6).toString('hex')}`;
    recipients.set(key, code);
    accountOf.set(code, `${bank_code}:${account_number}`);
    const details = {
      account_number,
      account_name: accountNames.get(`${bank_code}:${account_number}`) ?? null,
      bank_code,
    };
    return [
      201,
      {
        status: true,
        message: 'Transfer recipient created successfully',
        data: { recipient_code: code, type, name, currency: 'GHS', active: true, details },
      },
    ];
  }

  /** Why Paystack would refuse this transfer, or undefined. */
  function invalid(body: Record<string, unknown>): [number, unknown] | undefined {
    const { reference, amount, recipient: code, source, currency } = body;
    if (source !== 'balance' || currency !== 'GHS')
      return [400, { status: false, message: 'Invalid source or currency' }];
    if (typeof reference !== 'string' || !/^[a-z0-9_-]{16,50}$/.test(reference))
      return [400, { status: false, message: 'Invalid transfer reference' }];
    if (transfers.has(reference))
      return [400, { status: false, message: 'Duplicate Transfer Reference' }];
    if (!Number.isSafeInteger(amount) || (amount as number) <= 0)
      return [400, { status: false, message: 'Invalid amount' }];
    if (typeof code !== 'string' || ![...recipients.values()].includes(code))
      return [400, { status: false, message: 'Recipient specified is invalid' }];
    return undefined;
  }

  function transfer(body: Record<string, unknown>): [number, unknown] {
    const refusal = invalid(body);
    if (refusal) return refusal;
    const {
      reference,
      amount,
      recipient: code,
      reason,
    } = body as { reference: string; amount: number; recipient: string; reason?: unknown };
    const refused = refusingAccounts.has(accountOf.get(code) ?? '');
    const t: FakePaystackTransfer = {
      id: nextId++,
      reference,
      amount: amount as number,
      recipient: code,
      reason: String(reason ?? ''),
      status: refused ? 'failed' : state.newTransferStatus,
      transferCode: `TRF_${randomBytes(6).toString('hex')}`,
      failure: refused ? 'Account blocked by the receiving institution' : null,
    };
    transfers.set(reference, t);
    return [200, { status: true, message: 'Transfer has been queued', data: transferData(t) }];
  }

  /** As Paystack's bulk transfer: 1 to 100 transfers, all checked before any is taken (one refused refuses the request); one item per transfer queued. */
  function bulk(body: Record<string, unknown>): [number, unknown] {
    const { transfers: items, source, currency } = body;
    if (!Array.isArray(items) || items.length === 0 || items.length > 100)
      return [400, { status: false, message: 'transfers must hold 1 to 100 transfers' }];
    const all: Array<Record<string, unknown>> = items.map((item) => ({
      ...(item as Record<string, unknown>),
      source,
      currency,
    }));
    if (new Set(all.map((t) => t.reference)).size !== all.length)
      return [400, { status: false, message: 'Duplicate Transfer Reference' }];
    const refusal = all.map(invalid).find((r) => r !== undefined);
    if (refusal) return refusal;
    const data = all.map((t) => {
      const d = (transfer(t)[1] as { data: Record<string, unknown> }).data;
      return {
        reference: d.reference,
        recipient: d.recipient,
        amount: d.amount,
        transfer_code: d.transfer_code,
        currency: 'GHS',
        status: d.status,
        fee_charged: d.fee_charged,
        failures: d.failures,
      };
    });
    return [200, { status: true, message: `${data.length} transfers queued.`, data }];
  }

  function refund(body: Record<string, unknown>): [number, unknown] {
    const t = transactions.get(String(body.transaction));
    if (!t) return [400, { status: false, message: 'Transaction reference not found' }];
    if (t.status !== 'success')
      return [
        400,
        { status: false, message: 'Cannot refund a transaction that was not successful' },
      ];
    // What came back (failed, reversed) may be refunded again.
    const refunded = refunds
      .filter(
        (r) => r.transaction === t.reference && r.status !== 'failed' && r.status !== 'reversed',
      )
      .reduce((sum, r) => sum + r.amount, 0);
    const amount = body.amount === undefined ? (t.paidAmount ?? t.amount) - refunded : body.amount;
    if (
      !Number.isSafeInteger(amount) ||
      (amount as number) <= 0 ||
      refunded + (amount as number) > (t.paidAmount ?? t.amount)
    ) {
      return [
        400,
        { status: false, message: 'Refund amount cannot be greater than transaction amount' },
      ];
    }
    const r = {
      id: nextId++,
      transaction: t.reference,
      amount: amount as number,
      status: 'pending',
    };
    refunds.push(r);
    return [
      200,
      {
        status: true,
        message: 'Refund has been queued for processing',
        data: {
          id: r.id,
          amount: r.amount,
          currency: 'GHS',
          status: r.status,
          reversed_at: null,
          transaction: transactionData(t),
        },
      },
    ];
  }

  /** The buyer's page, for development: no auth, like checkout.paystack.com. Paying sends charge.success. */
  function checkoutPage(
    method: string,
    accessCode: string,
    action: string | undefined,
    res: ServerResponse,
  ): void {
    const t = [...transactions.values()].find((x) => x.accessCode === accessCode);
    if (!t) return send(res, 404, { status: false, message: 'Checkout not found' });
    if (method === 'POST' && action) {
      if (action === 'pay') fake.pay(t.reference);
      else t.status = 'failed';
      if (state.webhookUrl)
        sendWebhook(
          state.webhookUrl,
          action === 'pay' ? 'charge.success' : 'charge.failed',
          t.reference,
        ).catch(() => undefined);
      // Paystack returns the buyer to callback_url with trxref and reference.
      const back = new URL(t.callbackUrl);
      back.searchParams.set('trxref', t.reference);
      back.searchParams.set('reference', t.reference);
      res.writeHead(303, { Location: back.toString() }).end();
      return;
    }
    res
      .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><title>Fake Paystack checkout</title><p>GHS ${(t.amount / 100).toFixed(2)} (${t.status})</p>` +
          `<form method="post" action="/checkout/${accessCode}/pay"><button>Pay</button></form>` +
          `<form method="post" action="/checkout/${accessCode}/decline"><button>Decline</button></form>`,
      );
  }

  function transactionData(t: FakePaystackTransaction): Record<string, unknown> {
    return {
      id: t.id,
      status: t.status,
      reference: t.reference,
      amount: t.paidAmount ?? t.amount,
      currency: 'GHS',
      gateway_response: t.status === 'success' ? 'Approved' : 'The transaction was not completed',
      channel: 'mobile_money',
      fees: 0,
    };
  }

  function transferData(t: FakePaystackTransfer): Record<string, unknown> {
    const settled = t.status === 'success' || t.status === 'reversed';
    return {
      id: t.id,
      reference: t.reference,
      amount: t.amount,
      currency: 'GHS',
      source: 'balance',
      reason: t.reason,
      recipient: t.recipient,
      status: t.status,
      transfer_code: t.transferCode,
      fee_charged: settled ? 100 : 0,
      failures: t.failure,
    };
  }

  const sendWebhook = async (
    target: string,
    event: string,
    reference: string,
    signWith = secretKey,
  ) => {
    const tx = transactions.get(reference);
    const tr = transfers.get(reference);
    const data = event.startsWith('transfer.')
      ? tr
        ? transferData(tr)
        : { reference }
      : tx
        ? transactionData(tx)
        : { reference };
    const text = JSON.stringify({ event, data });
    const res = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-paystack-signature': paystackSignature(signWith, text),
      },
      body: text,
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: await res.text() };
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakePaystack = {
    url,
    secretKey,
    transactions,
    transfers,
    refunds,
    requests,
    accountNames,
    unknownAccounts,
    refusingAccounts,
    get retryAfterSeconds() {
      return retryAfterSeconds;
    },
    set retryAfterSeconds(v: number | undefined) {
      retryAfterSeconds = v;
    },
    pay(reference, amountPesewas) {
      const t = transactions.get(reference);
      if (!t) throw new Error(`fake Paystack: no transaction ${reference}`);
      t.status = 'success';
      t.paidAmount = amountPesewas ?? t.amount;
    },
    settleTransfer(reference, status, failure) {
      const t = transfers.get(reference);
      if (!t) throw new Error(`fake Paystack: no transfer ${reference}`);
      t.status = status;
      t.failure = failure ?? (status === 'success' ? null : `Transfer ${status}`);
    },
    get webhookUrl() {
      return state.webhookUrl;
    },
    set webhookUrl(value: string | undefined) {
      state.webhookUrl = value;
    },
    get newTransferStatus() {
      return state.newTransferStatus;
    },
    set newTransferStatus(value: string) {
      state.newTransferStatus = value;
    },
    failNext(kind, path) {
      failures.push({ kind, path });
    },
    hold(kind, path, skip = 0) {
      holding = { kind, path, skip };
    },
    release() {
      holding = undefined;
    },
    get held() {
      return held;
    },
    sendWebhook,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return fake;
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res
    .writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers })
    .end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The settings that point the platform's Paystack adapters at this fake. The timeout is what a
 * simulated timeout waits; an answer slower than it under load (two test passes sharing two
 * cores) would fail a test that meant no timeout, so it is generous.
 */
export function paystackEnv(fake: FakePaystack, timeoutMs = 2_000): Record<string, string> {
  return {
    PAYMENT_GATEWAY: 'paystack',
    PAYSTACK_SECRET_KEY: fake.secretKey,
    PAYSTACK_BASE_URL: fake.url,
    PAYSTACK_TIMEOUT_MS: String(timeoutMs),
  };
}
