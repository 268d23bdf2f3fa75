import { signRequest } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, startPlatform, type PartnerSetup, type TestPlatform } from '../helpers/harness.ts';

/** What answers before an operation runs: methods the API does not define. */

type ErrorBody = { status: string; code: string; message: string; request_id: string };

let p: TestPlatform;
let s: PartnerSetup;
let prod: PartnerSetup;
const READS = 100;
beforeAll(async () => {
  p = await startPlatform();
  const rateLimits = { reads_per_minute: READS, writes_per_minute: READS };
  s = await createPartner(p, { rateLimits });
  prod = await createPartner(p, { environment: 'production', scopes: ['*', 'delivery:wallet:topup'], rateLimits });
});
afterAll(() => p.close());

function signedHeaders(who: PartnerSetup, method: string, url: string, nonce: string, body = ''): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return { 'x-api-key': who.apiKey, 'x-timestamp': timestamp, 'x-nonce': nonce, 'x-signature': signRequest(who.signingSecret, { timestamp, nonce, method, url, body }) };
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
        const head = await fetch(p.url + op.path, { method: 'HEAD', headers: signedHeaders(who, signedAs, op.path, nonce) });
        expect(head.status, `${op.id} signed as ${signedAs}`).toBe(404);
        expect(head.headers.get('x-request-id')).toMatch(/^req_/);
        expect(head.headers.get('ratelimit-remaining')).toBeNull();
      }
      // The nonce is still fresh and the slot still free: the real GET is admitted.
      const get = await fetch(p.url + op.path, { headers: signedHeaders(who, 'GET', op.path, nonce) });
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
