import { signRequest } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { mountTestOperations, TEST_PATHS } from '../../helpers/test-operations.ts';

const HEALTH = '/api/v1/delivery/health';
const PROD_ONLY = TEST_PATHS.productionOnly;

let p: TestPlatform;
let staging: PartnerSetup;

beforeAll(async () => {
  p = await startPlatform({
    // A production-only operation on the real pipeline (the wallet and catalog writes are such).
    beforeListen: mountTestOperations('productionOnly'),
  });
  staging = await createPartner(p, { scopes: ['delivery:read', 'safe:read'] });
});
afterAll(() => p.close());

/** Sends a request with hand-made headers, signed with `secret` unless `signature` is given. */
async function raw(opts: {
  method?: string;
  url?: string;
  body?: string;
  secret?: string;
  key?: string | null;
  timestamp?: string;
  nonce?: string;
  signature?: string;
  omit?: string[];
  headers?: Record<string, string>;
}) {
  const method = opts.method ?? 'GET';
  const url = opts.url ?? HEALTH;
  const timestamp = opts.timestamp ?? String(Math.floor(Date.now() / 1000));
  const nonce = opts.nonce ?? crypto.randomUUID();
  const signature =
    opts.signature ??
    signRequest(opts.secret ?? staging.signingSecret, {
      timestamp,
      nonce,
      method,
      url,
      body: opts.body ?? '',
    });
  const headers: Record<string, string> = {
    'x-timestamp': timestamp,
    'x-nonce': nonce,
    'x-signature': signature,
    ...opts.headers,
  };
  if (opts.key !== null) headers['x-api-key'] = opts.key ?? staging.apiKey;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  for (const h of opts.omit ?? []) delete headers[h];
  const res = await fetch(p.url + url, { method, headers, body: opts.body });
  const body = (await res.json()) as { code?: string; request_id?: string; message?: string };
  return { status: res.status, code: body.code, body, headers: res.headers };
}

describe('signed request pipeline', () => {
  it('accepts a correctly signed request, with X-API-Key or a Bearer key', async () => {
    expect(await staging.client.delivery.health()).toEqual({ status: 'ok' });
    const bearer = await raw({ key: null, headers: { authorization: `Bearer ${staging.apiKey}` } });
    expect(bearer.status).toBe(200);
  });

  it('answers MISSING_API_KEY and INVALID_API_KEY', async () => {
    expect((await raw({ key: null })).code).toBe('MISSING_API_KEY');
    expect((await raw({ key: 'pk_staging_doesnotexistdoesnotexist' })).code).toBe(
      'INVALID_API_KEY',
    );
    expect((await raw({ key: 'not-a-key' })).code).toBe('INVALID_API_KEY');
    const mismatch = await raw({
      headers: { authorization: 'Bearer pk_staging_somebodyelsesomebodyelse' },
    });
    expect([mismatch.status, mismatch.code]).toEqual([401, 'INVALID_API_KEY']);
  });

  it('answers MISSING_SIGNATURE when any signing header is absent', async () => {
    for (const h of ['x-signature', 'x-timestamp', 'x-nonce']) {
      const res = await raw({ omit: [h] });
      expect([res.status, res.code]).toEqual([401, 'MISSING_SIGNATURE']);
    }
  });

  it('answers INVALID_TIMESTAMP for milliseconds or non-numeric values, STALE_REQUEST past 5 minutes', async () => {
    const ms = await raw({ timestamp: String(Date.now()) });
    expect([ms.code, ms.body.message]).toEqual([
      'INVALID_TIMESTAMP',
      expect.stringMatching(/milliseconds/),
    ]);
    expect((await raw({ timestamp: '2026-11-21T10:00:00Z' })).code).toBe('INVALID_TIMESTAMP');
    // A minute either side of the 5-minute edge: a loaded machine can take seconds to answer.
    const seconds = () => Math.floor(Date.now() / 1000);
    expect((await raw({ timestamp: String(seconds() - 360) })).code).toBe('STALE_REQUEST');
    expect((await raw({ timestamp: String(seconds() + 360) })).code).toBe('STALE_REQUEST');
    expect((await raw({ timestamp: String(seconds() - 240) })).status).toBe(200);
  });

  it('answers INVALID_NONCE for a nonce of the wrong form', async () => {
    expect((await raw({ nonce: 'short' })).code).toBe('INVALID_NONCE');
    expect((await raw({ nonce: 'has spaces in it, sixteen+' })).code).toBe('INVALID_NONCE');
    expect((await raw({ nonce: 'x'.repeat(129) })).code).toBe('INVALID_NONCE');
  });

  it('answers INVALID_SIGNATURE for a wrong secret or a changed byte, and accepts upper-case hex', async () => {
    expect((await raw({ secret: 'sk_wrong' })).code).toBe('INVALID_SIGNATURE');
    expect((await raw({ signature: 'zz' })).code).toBe('INVALID_SIGNATURE');
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = crypto.randomUUID();
    const sig = signRequest(staging.signingSecret, {
      timestamp,
      nonce,
      method: 'GET',
      url: HEALTH,
    });
    expect((await raw({ timestamp, nonce, signature: sig.toUpperCase() })).status).toBe(200);
  });

  it('signs query strings with repeated and reserved characters; a changed byte of path or query fails', async () => {
    const url = `${HEALTH}?b=2&a=2&a=1&flag&q=x+y&r=%7e%21*&path=%2Fa%2Fb&u=%C3%A9`;
    expect((await raw({ url })).status).toBe(200);
    // Signed for one target, sent to another: one byte of query or path differs.
    const signedFor = `${HEALTH}?b=2&a=2`;
    for (const sent of [
      `${HEALTH}?b=2&a=3`,
      `${HEALTH}?b=2&a=2&c`,
      `/api/v1/delivery/healtH?b=2&a=2`,
    ]) {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const nonce = crypto.randomUUID();
      const signature = signRequest(staging.signingSecret, {
        timestamp,
        nonce,
        method: 'GET',
        url: signedFor,
      });
      const res = await raw({ url: sent, timestamp, nonce, signature });
      expect(res.status).not.toBe(200);
      expect(['INVALID_SIGNATURE', 'NOT_FOUND']).toContain(res.code);
    }
  });

  it('refuses a replayed nonce, and does not consume a nonce whose signature failed', async () => {
    const nonce = crypto.randomUUID();
    expect((await raw({ nonce, secret: 'sk_wrong' })).code).toBe('INVALID_SIGNATURE');
    expect((await raw({ nonce })).status).toBe(200);
    const again = await raw({ nonce });
    expect([again.status, again.code]).toEqual([409, 'NONCE_REPLAYED']);
  });

  it('lets exactly one of 50 concurrent requests with one nonce pass', async () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = crypto.randomUUID();
    const signature = signRequest(staging.signingSecret, {
      timestamp,
      nonce,
      method: 'GET',
      url: HEALTH,
    });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => raw({ timestamp, nonce, signature })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.code === 'NONCE_REPLAYED')).toHaveLength(49);
  });

  it('answers INSUFFICIENT_SCOPE naming the scope, before looking at the signature', async () => {
    const catalogOnly = await createPartner(p, { scopes: ['safe:read'] });
    const res = await raw({ key: catalogOnly.apiKey, secret: 'sk_wrong' });
    expect([res.status, res.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    expect(res.body.message).toContain('delivery:read');
    expect(res.body.message).toMatch(/ask the platform's operations team for a key that holds it/);
  });

  it('answers PRODUCTION_KEY_REQUIRED for a staging key on a production-only operation, before the scope', async () => {
    const res = await raw({ method: 'POST', url: PROD_ONLY, body: '{}' });
    expect([res.status, res.code]).toEqual([403, 'PRODUCTION_KEY_REQUIRED']);
    // The next step, not only the refusal: how production access is obtained.
    expect(res.body.message).toMatch(
      /ask the platform's operations team for production access .*pk_production_ key/,
    );
  });

  it('answers PARTNER_INACTIVE for a suspended partner (bad signature or not), and recovers on reactivation', async () => {
    const s = await createPartner(p, { scopes: ['delivery:read'] });
    await p.admin('PATCH', `/partners/${s.partnerId}`, { status: 'suspended' });
    const res = await raw({ key: s.apiKey, secret: 'sk_wrong' });
    expect([res.status, res.code]).toEqual([403, 'PARTNER_INACTIVE']);
    await p.admin('PATCH', `/partners/${s.partnerId}`, { status: 'active' });
    expect((await s.client.send('GET', HEALTH)).status).toBe(200);
  });

  it('answers ENVIRONMENT_NOT_ACTIVE for a production key once production access is switched off', async () => {
    const prod = await createPartner(p, { environment: 'production', scopes: ['delivery:read'] });
    expect((await prod.client.send('GET', HEALTH)).status).toBe(200);
    await p.admin('PATCH', `/partners/${prod.partnerId}`, { production_active: false });
    const res = await prod.client.send<{ code: string; message: string }>('GET', HEALTH);
    expect([res.status, res.body.code]).toEqual([403, 'ENVIRONMENT_NOT_ACTIVE']);
    expect(res.body.message).toMatch(
      /ask the platform's operations team to activate it; until then, use a staging key/,
    );
  });

  it('answers SIGNING_NOT_CONFIGURED when the stored secret cannot be opened', async () => {
    const s = await createPartner(p, { scopes: ['delivery:read'] });
    await p.app.platform.db.query(
      `update api_keys set signing_secret_sealed = 'v1:AAAA' where id = $1`,
      [s.keyId],
    );
    await p.admin('PATCH', `/partners/${s.partnerId}`, {}); // drops this instance's key cache
    const res = await s.client.send<{ code: string }>('GET', HEALTH);
    expect([res.status, res.body.code]).toEqual([401, 'SIGNING_NOT_CONFIGURED']);
  });

  it('refuses a revoked key with INVALID_API_KEY', async () => {
    const s = await createPartner(p, { scopes: ['delivery:read'] });
    expect((await s.client.send('GET', HEALTH)).status).toBe(200);
    expect((await p.admin('DELETE', `/keys/${s.keyId}`)).status).toBe(204);
    const res = await s.client.send<{ code: string }>('GET', HEALTH);
    expect([res.status, res.body.code]).toEqual([401, 'INVALID_API_KEY']);
  });
});
