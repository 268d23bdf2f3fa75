import { createServer, type Server } from 'node:http';
import {
  ConflictError,
  PartnerClient,
  PartnerNetworkError,
  RateLimitError,
  ServerError,
  type ClientOptions,
  type CreateOrderRequest,
} from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffMs } from '../../../packages/sdk/src/retry.ts';
import { parseRetryAfter } from '../../../packages/sdk/src/errors.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import { freePort } from '../../helpers/process.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import {
  answer,
  landThenLose,
  netError,
  rejection,
  scripted as scriptedWith,
  type Step,
} from '../support.ts';

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform();
  s = await createPartner(p);
});
afterAll(() => p.close());

const unavailable = answer(503, {
  status: 'error',
  code: 'SERVICE_UNAVAILABLE',
  message: 'down',
  request_id: 'req_x',
});
const scripted = (steps: Step[], options: Partial<ClientOptions> = {}) =>
  scriptedWith(
    { apiKey: s.apiKey, signingSecret: s.signingSecret, baseUrl: p.url },
    steps,
    options,
  );

const order = () => orderBody() as CreateOrderRequest;

describe('SDK retries', () => {
  it('retries a read after a network error and a 500, each attempt with a fresh nonce and timestamp', async () => {
    const { client, seen } = scripted([
      netError('ECONNRESET'),
      answer(500, { status: 'error', code: 'INTERNAL_ERROR', message: 'x', request_id: 'req_1' }),
    ]);
    expect(await client.delivery.health()).toEqual({ status: 'ok' });
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((x) => x.nonce)).size).toBe(3);
    expect(seen.every((x) => /^\d{10}$/.test(x.timestamp))).toBe(true);
  });

  it('gives up after maxRetries with the last typed error; maxRetries 0 sends once', async () => {
    const down = () => answer(502, '<html>bad gateway</html>');
    const three = scripted([down(), down(), down()]);
    const err = await rejection(three.client.delivery.orders.track('dlv_x'));
    expect(err).toBeInstanceOf(ServerError);
    expect(err).toMatchObject({ status: 502, code: 'UNKNOWN_ERROR', attempts: 3 });
    const once = scripted([down()], { maxRetries: 0 });
    expect(await rejection(once.client.delivery.health())).toMatchObject({
      status: 502,
      attempts: 1,
    });
    expect(once.seen).toHaveLength(1);
  });

  it('honours Retry-After on 429, and throws at once when it is longer than maxRetryAfterSeconds', async () => {
    const limited = (seconds: string) =>
      answer(
        429,
        { status: 'error', code: 'RATE_LIMITED', message: 'slow down', request_id: 'req_2' },
        { 'retry-after': seconds },
      );
    const short = scripted([limited('1')]);
    const started = Date.now();
    expect(await short.client.delivery.health()).toEqual({ status: 'ok' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    const long = scripted([limited('120')]);
    const err = await rejection(long.client.delivery.health());
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 120, attempts: 1 });
    expect(long.seen).toHaveLength(1);
  });

  it("the server's own 429 is a RateLimitError carrying Retry-After", async () => {
    const tight = await createPartner(p, {
      rateLimits: { reads_per_minute: 1, writes_per_minute: 1 },
    });
    const client = new PartnerClient({
      apiKey: tight.apiKey,
      signingSecret: tight.signingSecret,
      baseUrl: p.url,
      maxRetryAfterSeconds: 0,
    });
    await client.delivery.health();
    const err = await rejection(client.delivery.health());
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(err.retryAfterSeconds).toBe(Number(err.headers['retry-after']));
  });

  it('create: the first attempt lands but its answer is lost; the retry answers 409 and the SDK returns that order', async () => {
    const body = order();
    const { client, seen } = scripted([landThenLose]);
    const res = await client.delivery.orders.create(body);
    expect(res.recovered).toBe(true);
    const found = (await s.client.delivery.orders.getByReference(body.order_reference)).data;
    const track = (await s.client.delivery.orders.track(found.internal_order_id)).data;
    expect(res.data).toEqual({
      status: 'order_created',
      order_details: {
        order_id: found.internal_order_id,
        order_reference: body.order_reference,
        estimated_delivery: track.estimated_delivery_time,
        tracking_url: found.tracking_url,
        amount: found.order_info.amount,
      },
    });
    // create (lost), create (409), orders.get by reference, orders.track.
    expect(seen.map((x) => x.path.split('/').at(-1))).toEqual([
      'orders.create',
      'orders.create',
      'orders.get',
      'orders.track',
    ]);
  });

  it('create: a 409 after attempts that provably changed nothing (429, 503 SERVICE_UNAVAILABLE) is a real duplicate', async () => {
    const body = order();
    await s.client.delivery.orders.create(body);
    const { client, seen } = scripted([
      answer(429, { code: 'RATE_LIMITED' }, { 'retry-after': '0' }),
      unavailable,
    ]);
    const err = await rejection(client.delivery.orders.create(body));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({ code: 'DUPLICATE_ORDER_REFERENCE', attempts: 3 });
    expect(seen).toHaveLength(3);
  });

  it('createBulk: a lost answer is retried and the landed items are reported created, with their ids', async () => {
    const orders = [
      order(),
      order(),
      { ...order(), item: undefined } as unknown as CreateOrderRequest,
    ];
    const { client } = scripted([landThenLose]);
    const res = await client.delivery.orders.createBulk(orders);
    expect(res.summary).toEqual({ total: 3, created: 2, failed: 1 });
    for (const [i, o] of orders.slice(0, 2).entries()) {
      const id = (await s.client.delivery.orders.getByReference(o.order_reference)).data
        .internal_order_id;
      expect(res.results[i]).toEqual({
        order_reference: o.order_reference,
        ok: true,
        status_code: 201,
        order_id: id,
      });
    }
    expect(res.results[2]).toMatchObject({ ok: false, code: 'MISSING_REQUIRED_FIELD' });
  });

  it('cancel is not repeated after a failure that may have landed, only after ones that prove nothing ran', async () => {
    const id = async () =>
      (await s.client.delivery.orders.create(order())).data.order_details.order_id;
    const lost = await id();
    const a = scripted([landThenLose]);
    const err = await rejection(a.client.delivery.orders.cancel(lost));
    expect(err).toBeInstanceOf(PartnerNetworkError);
    expect(err).toMatchObject({ attempts: 1, timedOut: false });
    expect((await s.client.delivery.orders.get(lost)).data.status).toBe('cancelled');

    const b = scripted([netError('ECONNREFUSED'), unavailable]);
    expect((await b.client.delivery.orders.cancel(await id(), 'retry me')).data.status).toBe(
      'cancelled',
    );
    expect(b.seen).toHaveLength(3);

    const c = scripted([answer(500, { code: 'INTERNAL_ERROR' })]);
    expect(await rejection(c.client.delivery.orders.cancel(await id()))).toMatchObject({
      status: 500,
      attempts: 1,
    });
  });

  it('timeouts: each attempt is cut at timeoutMs; reads are retried, unsafe writes are not', async () => {
    const held: Server = createServer(() => {
      // never answers
    });
    await new Promise<void>((r) => held.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(held.address() as { port: number }).port}`;
    try {
      const client = new PartnerClient({
        apiKey: s.apiKey,
        signingSecret: s.signingSecret,
        baseUrl,
        timeoutMs: 150,
        maxRetries: 1,
        retryBaseDelayMs: 5,
      });
      const started = Date.now();
      const read = await rejection(client.delivery.health());
      expect(read).toBeInstanceOf(PartnerNetworkError);
      expect(read).toMatchObject({ timedOut: true, attempts: 2 });
      expect(read.message).toMatch(/timed out after 150 ms/);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(await rejection(client.delivery.wallet.topup.initiate(50))).toMatchObject({
        timedOut: true,
        attempts: 1,
      });
    } finally {
      held.closeAllConnections();
      held.close();
    }
  });

  it('a refused connection is retried even for an unsafe write (the request never left)', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}`;
    const client = new PartnerClient({
      apiKey: s.apiKey,
      signingSecret: s.signingSecret,
      baseUrl,
      retryBaseDelayMs: 5,
    });
    const err = await rejection(client.delivery.orders.cancel('dlv_x'));
    expect(err).toBeInstanceOf(PartnerNetworkError);
    expect(err).toMatchObject({ attempts: 3, timedOut: false });
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it('backoff doubles up to the cap with jitter; Retry-After reads seconds and HTTP dates', () => {
    expect(backoffMs(1, 500, 8000, () => 0)).toBe(250);
    expect(backoffMs(1, 500, 8000, () => 1)).toBe(500);
    expect(backoffMs(3, 500, 8000, () => 1)).toBe(2000);
    expect(backoffMs(10, 500, 8000, () => 1)).toBe(8000);
    expect(parseRetryAfter('7')).toBe(7);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThanOrEqual(4);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
