/**
 * The least any server can do for a signed health call of the contract, on bare Fastify beside the
 * bare no-op: the API key compared, the timestamp window, the HMAC over the canonical request
 * (the shared protocol package, as the platform and the SDK use), the nonce recorded, the request
 * counted, and the rate-limit and request-id headers answered. No logging, no metrics, no scopes,
 * no partner state, no database. Signed health over the bare no-op cannot beat this floor's ratio;
 * the headline measures it once (bench/lib/floor-check.ts) so the health target reads against it.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  canonicalRequest,
  SIGNED_REQUEST_HEADERS as H,
  sha256Hex,
  signCanonical,
} from '@partner-platform/protocol';
import type { FastifyInstance } from 'fastify';

export const FLOOR_PATH = '/signed-noop';
const EMPTY_BODY = sha256Hex('');
const SKEW_SECONDS = 300;
const LIMIT = 1_000_000;

const refuse = (code: string) => ({ status: 'error', code });

export function registerFloor(
  app: FastifyInstance,
  key: { apiKey: string; signingSecret: string },
): void {
  const nonces = new Set<string>();
  let counted = 0;
  app.get(FLOOR_PATH, async (request, reply) => {
    const h = request.headers;
    if (h[H.apiKey] !== key.apiKey) return reply.code(401).send(refuse('INVALID_API_KEY'));
    const timestamp = String(h[H.timestamp]);
    const nonce = String(h[H.nonce]);
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > SKEW_SECONDS)
      return reply.code(401).send(refuse('STALE_REQUEST'));
    const canonical = canonicalRequest(
      { timestamp, nonce, method: request.method, url: request.raw.url ?? request.url },
      EMPTY_BODY,
    );
    const expected = Buffer.from(signCanonical(key.signingSecret, canonical), 'hex');
    const given = Buffer.from(String(h[H.signature]), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(expected, given))
      return reply.code(401).send(refuse('INVALID_SIGNATURE'));
    if (nonces.has(nonce)) return reply.code(409).send(refuse('NONCE_REPLAYED'));
    nonces.add(nonce);
    counted++;
    reply.headers({
      'ratelimit-limit': String(LIMIT),
      'ratelimit-remaining': String(Math.max(0, LIMIT - counted)),
      'ratelimit-reset': '60',
      'x-request-id': `req_${counted}`,
    });
    return { status: 'ok' };
  });
}
