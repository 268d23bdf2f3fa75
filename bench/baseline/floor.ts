/**
 * The least any server can do for a signed health call of the contract, on bare Fastify: the
 * signed headers present and well-formed (the pipeline's own forms), the API key compared, the
 * timestamp window, the HMAC over the canonical request (the shared protocol package, as the
 * platform and the SDK use), the nonce recorded, the request counted, and the rate-limit and
 * request-id headers answered. No logging, metrics, scopes, partner state, database, rolling
 * window or ULIDs: every shortcut errs on the cheap side. The headline measures it once, in a
 * process of its own (floor-server.ts, bench/lib/floor-check.ts), beside the bare no-op.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  canonicalRequest,
  SIGNED_REQUEST_HEADERS as H,
  sha256Hex,
  signCanonical,
  SIGNED_REQUEST_FORMS as FORM,
} from '@partner-platform/protocol';
import type { FastifyInstance } from 'fastify';

export const FLOOR_PATH = '/signed-noop';
const EMPTY_BODY = sha256Hex('');
const SKEW_SECONDS = 300;
const LIMIT = 1_000_000;

const refuse = (code: string) => ({ status: 'error', code });
const one = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join(',') : value;

export function registerFloor(
  app: FastifyInstance,
  key: { apiKey: string; signingSecret: string },
): void {
  const nonces = new Set<string>();
  let counted = 0;
  app.get(FLOOR_PATH, async (request, reply) => {
    const h = request.headers;
    const apiKey = one(h[H.apiKey]);
    const timestamp = one(h[H.timestamp]);
    const nonce = one(h[H.nonce]);
    const signature = one(h[H.signature]);
    if (!apiKey || !FORM.apiKey.test(apiKey) || apiKey !== key.apiKey)
      return reply.code(401).send(refuse('INVALID_API_KEY'));
    if (!timestamp || !nonce || !signature)
      return reply.code(401).send(refuse('MISSING_SIGNATURE'));
    if (!FORM.timestamp.test(timestamp)) return reply.code(401).send(refuse('INVALID_TIMESTAMP'));
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > SKEW_SECONDS)
      return reply.code(401).send(refuse('STALE_REQUEST'));
    if (!FORM.nonce.test(nonce)) return reply.code(401).send(refuse('INVALID_NONCE'));
    const canonical = canonicalRequest(
      { timestamp, nonce, method: request.method, url: request.raw.url ?? request.url },
      EMPTY_BODY,
    );
    const expected = Buffer.from(signCanonical(key.signingSecret, canonical), 'hex');
    if (
      !FORM.signature.test(signature) ||
      !timingSafeEqual(expected, Buffer.from(signature, 'hex'))
    )
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
