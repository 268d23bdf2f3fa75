import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { mountTestOperations, TEST_PATHS } from '../../helpers/test-operations.ts';

const ECHO = TEST_PATHS.echo;
const BOOM = TEST_PATHS.boom;

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform({
    beforeListen: mountTestOperations('echo', 'boom'),
  });
  s = await createPartner(p);
});
afterAll(() => p.close());

type ErrorBody = {
  status: string;
  code: string;
  message: string;
  request_id: string;
  details?: { field: string; issue: string }[];
};

function expectErrorBody(
  res: { status: number; headers: Record<string, string>; body: unknown },
  status: number,
  code: string,
): ErrorBody {
  const body = res.body as ErrorBody;
  expect(res.status).toBe(status);
  expect(body).toMatchObject({ status: 'error', code, message: expect.any(String) });
  expect(body.request_id).toMatch(/^req_[0-9A-Z]{26}$/);
  expect(res.headers['x-request-id']).toBe(body.request_id);
  return body;
}

describe('error bodies', () => {
  it('answers an unknown operation or method with 404 NOT_FOUND (never 405)', async () => {
    expectErrorBody(
      await s.client.send('POST', '/api/v1/delivery/nope', { body: {} }),
      404,
      'NOT_FOUND',
    );
    expectErrorBody(
      await s.client.send('POST', '/api/v1/delivery/health', { body: {} }),
      404,
      'NOT_FOUND',
    );
    expectErrorBody(await s.client.send('GET', '/nowhere'), 404, 'NOT_FOUND');
  });

  it('answers INVALID_JSON for malformed JSON, a non-object, or an empty body, after authentication', async () => {
    expectErrorBody(
      await s.client.send('POST', ECHO, { rawBody: '{"name": ' }),
      400,
      'INVALID_JSON',
    );
    expectErrorBody(await s.client.send('POST', ECHO, { rawBody: '[1,2]' }), 400, 'INVALID_JSON');
    expectErrorBody(await s.client.send('POST', ECHO, { rawBody: '"text"' }), 400, 'INVALID_JSON');
    expectErrorBody(
      await s.client.send('POST', ECHO, { rawBody: '{"__proto__": {"x": 1}}' }),
      400,
      'INVALID_JSON',
    );
    expectErrorBody(await s.client.send('POST', ECHO), 400, 'INVALID_JSON');
    // A bad key wins over bad JSON.
    const unsigned = await fetch(p.url + ECHO, {
      method: 'POST',
      body: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    expect(((await unsigned.json()) as ErrorBody).code).toBe('MISSING_API_KEY');
  });

  it('answers VALIDATION_ERROR with details for unknown properties at any level and wrong types', async () => {
    const body = expectErrorBody(
      await s.client.send('POST', ECHO, {
        body: { name: 'x', extra: true, nested: { n: 'one', m: 2 } },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(body.details).toEqual(
      expect.arrayContaining([
        { field: 'extra', issue: 'is not an accepted property' },
        { field: 'nested.m', issue: 'is not an accepted property' },
        { field: 'nested.n', issue: 'must be integer' },
      ]),
    );
    const missing = expectErrorBody(
      await s.client.send('POST', ECHO, { body: {} }),
      400,
      'VALIDATION_ERROR',
    );
    expect(missing.details).toEqual([{ field: 'name', issue: 'is required' }]);
  });

  it('answers 413 PAYLOAD_TOO_LARGE for a body over 1 MiB', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    expectErrorBody(await s.client.send('POST', ECHO, { rawBody: big }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers 500 INTERNAL_ERROR without leaking the cause', async () => {
    const res = await s.client.send('POST', BOOM);
    const body = expectErrorBody(res, 500, 'INTERNAL_ERROR');
    expect(JSON.stringify(body)).not.toMatch(/secret internals|select|api_keys|at .*\.ts/);
  });

  it('puts an X-Request-Id on every answer, probes included, and never trusts a client-sent one', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await fetch(p.url + path, { headers: { 'x-request-id': 'client-chosen' } });
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    }
    const ok = await s.client.send('POST', ECHO, { body: { name: 'a' } });
    expect(ok.status).toBe(200);
    expect(ok.headers['x-request-id']).toMatch(/^req_/);
  });
});
