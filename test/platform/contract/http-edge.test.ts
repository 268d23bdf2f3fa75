import net from 'node:net';
import { signRequest } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';

/** What answers before an operation runs: unknown methods, media types, and what the HTTP layer refuses. */

type ErrorBody = { status: string; code: string; message: string; request_id: string };

let p: TestPlatform;
let s: PartnerSetup;
let prod: PartnerSetup;
const READS = 100;
beforeAll(async () => {
  p = await startPlatform();
  const rateLimits = { reads_per_minute: READS, writes_per_minute: READS };
  s = await createPartner(p, { rateLimits });
  prod = await createPartner(p, {
    environment: 'production',
    scopes: ['*', 'delivery:wallet:topup'],
    rateLimits,
  });
});
afterAll(() => p.close());

function signedHeaders(
  who: PartnerSetup,
  method: string,
  url: string,
  nonce: string,
  body = '',
): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    'x-api-key': who.apiKey,
    'x-timestamp': timestamp,
    'x-nonce': nonce,
    'x-signature': signRequest(who.signingSecret, { timestamp, nonce, method, url, body }),
  };
}

/** One request written by hand on a fresh connection; the answer as status, headers and body text. */
function rawRequest(
  text: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(p.url);
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(text));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('error', () => undefined); // the server may reset after answering
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [
          l.slice(0, l.indexOf(':')).toLowerCase(),
          l.slice(l.indexOf(':') + 1).trim(),
        ]),
      );
      if (!statusLine) reject(new Error('no answer'));
      else resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    setTimeout(() => socket.destroy(), 3000);
  });
}

function expectErrorBody(
  res: { status: number; headers: Record<string, string>; body: string },
  status: number,
  code: string,
): void {
  const body = JSON.parse(res.body) as ErrorBody;
  expect([res.status, body.status, body.code], res.body).toEqual([status, 'error', code]);
  expect(body.request_id).toMatch(/^req_[0-9A-Z]{26}$/);
  expect(res.headers['x-request-id']).toBe(body.request_id);
}

describe('HEAD', () => {
  it('answers 404 NOT_FOUND on every signed GET operation, consuming no nonce and no rate-limit slot', async () => {
    const gets = p.app.platform.operations.filter((op) => op.method === 'GET');
    expect(gets.length).toBeGreaterThan(3);
    let remaining: string | null = null;
    for (const op of gets) {
      const who = op.productionOnly ? prod : s;
      const nonce = crypto.randomUUID();
      for (const signedAs of ['HEAD', 'GET']) {
        const head = await fetch(p.url + op.path, {
          method: 'HEAD',
          headers: signedHeaders(who, signedAs, op.path, nonce),
        });
        expect(head.status, `${op.id} signed as ${signedAs}`).toBe(404);
        expect(head.headers.get('x-request-id')).toMatch(/^req_/);
        expect(head.headers.get('ratelimit-remaining')).toBeNull();
      }
      // The nonce is still fresh and the slot still free: the real GET is admitted.
      const get = await fetch(p.url + op.path, {
        headers: signedHeaders(who, 'GET', op.path, nonce),
      });
      const body = (await get.json()) as Partial<ErrorBody>;
      expect(body.code, op.id).not.toBe('NONCE_REPLAYED');
      if (who === s) remaining = get.headers.get('ratelimit-remaining');
    }
    // Only the GETs took read slots.
    expect(Number(remaining)).toBe(READS - gets.filter((op) => !op.productionOnly).length);
  });

  it('is served on public pages and documents, as for any GET resource', async () => {
    for (const path of ['/docs', '/openapi.json', '/healthz', '/checkout/complete']) {
      expect((await fetch(p.url + path, { method: 'HEAD' })).status, path).toBe(200);
    }
  });
});

describe('media types and bodies', () => {
  const ORDERS_GET = '/api/v1/delivery/orders.get';
  const body = '{"order_id":"dlv_unknown"}';
  const send = (contentType: string) =>
    s.client.send<ErrorBody>('POST', ORDERS_GET, {
      rawBody: body,
      headers: { 'content-type': contentType },
    });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE for malformed or non-JSON content types, with the error body', async () => {
    for (const contentType of [
      'application/json, text/plain',
      'application/json; charset=bogus',
      '',
      ' ',
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'application/jsonx',
    ]) {
      const res = await send(contentType);
      expect([res.status, res.body.code], JSON.stringify(contentType)).toEqual([
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ]);
      expect(res.headers['x-request-id']).toBe(res.body.request_id);
    }
    for (const contentType of [
      'application/json',
      'Application/JSON; charset=UTF-8',
      'application/json;charset="utf-8"',
    ]) {
      expect((await send(contentType)).body.code, contentType).toBe('ORDER_NOT_FOUND');
    }
    const admin = await p.fetch(`${p.url}/admin/v1/partners`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/plain' },
      body: '{"name":"x"}',
    });
    expect(admin.status).toBe(415);
  });

  it('refuses a body on GET with VALIDATION_ERROR', async () => {
    const path = '/api/v1/delivery/health';
    const headers = Object.entries(signedHeaders(s, 'GET', path, crypto.randomUUID(), '{}'))
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    const res = await rawRequest(
      `GET ${path} HTTP/1.1\r\nHost: x\r\n${headers}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
  });
});

describe('requests the HTTP layer refuses', () => {
  const get = (path: string, extra = '') =>
    rawRequest(`GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}Connection: close\r\n\r\n`);

  it('answers an oversized header block or URL with 431 HEADERS_TOO_LARGE and the error body', async () => {
    expectErrorBody(
      await get('/api/v1/delivery/health', `X-Filler: ${'a'.repeat(20_000)}\r\n`),
      431,
      'HEADERS_TOO_LARGE',
    );
    expectErrorBody(
      await get(`/api/v1/delivery/health?q=${'a'.repeat(20_000)}`),
      431,
      'HEADERS_TOO_LARGE',
    );
  });

  it('answers malformed HTTP, bad percent-encoding and a missing Host with 400 BAD_REQUEST', async () => {
    expectErrorBody(await rawRequest('GARBAGE\r\n\r\n'), 400, 'BAD_REQUEST');
    expectErrorBody(await rawRequest('FOO / HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'BAD_REQUEST');
    expectErrorBody(
      await rawRequest(
        'POST /api/v1/delivery/orders.get HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      ),
      400,
      'BAD_REQUEST',
    );
    expectErrorBody(
      await rawRequest(
        'POST /api/v1/delivery/orders.get HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      ),
      400,
      'BAD_REQUEST',
    );
    expectErrorBody(await get('/api/v1/delivery/%zz'), 400, 'BAD_REQUEST');
    expectErrorBody(await get('/admin/v1/partners/%zz/wallet'), 400, 'BAD_REQUEST');
    expectErrorBody(
      await rawRequest('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n'),
      400,
      'BAD_REQUEST',
    );
  });

  it('answers CONNECT and an over-long path parameter with 404 NOT_FOUND, and serves an unknown Expect', async () => {
    expectErrorBody(await get(`/track/${'a'.repeat(200)}`), 404, 'NOT_FOUND');
    expectErrorBody(
      await rawRequest('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
      404,
      'NOT_FOUND',
    );
    const expectation = await get('/healthz', 'Expect: something-else\r\n');
    expect([expectation.status, expectation.body]).toEqual([200, '{"status":"ok"}']);
  });
});
