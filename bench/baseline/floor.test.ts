import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../packages/sdk/src/index.ts';
import { FLOOR_PATH, registerFloor } from './floor.ts';

// The floor does the contract's work for signed health, so the bench does not compare the platform
// with a floor that checks less than the platform must: missing or malformed signed headers,
// another key, a wrong signature, a stale timestamp or a reused nonce are refused, and a fresh
// signed call is answered with the rate headers.

const KEY = { apiKey: 'pk_production_floorfloorfloorfloor', signingSecret: 'floor-secret' };

async function floor() {
  const app = Fastify();
  registerFloor(app, KEY);
  await app.ready();
  return app;
}

const signed = (key = KEY) =>
  new PartnerClient({ ...key, baseUrl: 'http://bench' }).signHeaders('GET', FLOOR_PATH, '');

describe('the signed health floor', () => {
  it('answers a signed call, with the rate-limit and request-id headers', async () => {
    const app = await floor();
    const res = await app.inject({ method: 'GET', url: FLOOR_PATH, headers: signed() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers).toMatchObject({ 'ratelimit-remaining': '999999', 'x-request-id': 'req_1' });
  });

  it('refuses another key, another secret, a stale timestamp and a reused nonce', async () => {
    const app = await floor();
    const code = async (headers: Record<string, string>) =>
      (await app.inject({ method: 'GET', url: FLOOR_PATH, headers })).json().code;
    expect(await code(signed({ ...KEY, apiKey: 'pk_production_someoneelsesomeone' }))).toBe(
      'INVALID_API_KEY',
    );
    expect(await code(signed({ ...KEY, signingSecret: 'not-the-secret' }))).toBe(
      'INVALID_SIGNATURE',
    );
    expect(await code({ ...signed(), 'x-signature': 'zz' })).toBe('INVALID_SIGNATURE');
    expect(await code({ ...signed(), 'x-timestamp': '1000' })).toBe('STALE_REQUEST');
    expect(await code({ ...signed(), 'x-timestamp': '17e8' })).toBe('INVALID_TIMESTAMP');
    expect(await code({ ...signed(), 'x-nonce': 'short' })).toBe('INVALID_NONCE');
    const { 'x-nonce': _nonce, ...unsigned } = signed();
    expect(await code(unsigned)).toBe('MISSING_SIGNATURE');
    expect(await code({ ...signed(), 'x-api-key': 'not a key' })).toBe('INVALID_API_KEY');
    const once = signed();
    expect((await app.inject({ method: 'GET', url: FLOOR_PATH, headers: once })).statusCode).toBe(
      200,
    );
    expect(await code(once)).toBe('NONCE_REPLAYED');
  });
});
