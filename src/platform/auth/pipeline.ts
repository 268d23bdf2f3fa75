import {
  canonicalRequest,
  sha256Hex,
  signCanonical,
  SIGNED_REQUEST_FORMS as FORM,
  SIGNED_REQUEST_HEADERS as H,
} from '@partner-platform/protocol';
import { Counter } from 'prom-client';
import { AppError, errors } from '../errors.ts';
import { timingSafeEqual } from 'node:crypto';
import { processMetrics } from '../metrics/registry.ts';
import type { Access, AdmitResult, GuardStore } from '../guard/types.ts';
import type { AuthContext, KeyResolver, ResolvedKey } from './context.ts';
import { scopeCovers, type Scope } from './scopes.ts';

export interface GuardedOperation {
  scope: Scope;
  productionOnly: boolean;
  /** Sandbox only (test clocks): production keys answer 403 STAGING_KEY_REQUIRED. */
  stagingOnly?: boolean;
  access: Access;
}

export interface PipelineDeps {
  keys: KeyResolver;
  guard: GuardStore;
  /** Milliseconds since the epoch. */
  clock: () => number;
  defaultLimits: { readsPerMinute: number; writesPerMinute: number };
  clockSkewSeconds: number;
}

export interface IncomingSignedRequest {
  headers: Record<string, string | string[] | undefined>;
  method: string;
  /** The request target exactly as on the request line. */
  url: string;
  rawBody: Buffer | undefined;
}

export interface RateState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

const outcomes = new Counter({
  name: 'auth_outcomes_total',
  help: 'Signed requests by the outcome of the authentication pipeline: ok, or the error code it answered',
  labelNames: ['outcome'],
  registers: [processMetrics],
});
// Bound once: counting an admitted request makes no label object.
const admitted = outcomes.labels('ok');
const rejections = new Counter({
  name: 'rate_limit_rejections_total',
  help: 'Signed requests refused with 429 RATE_LIMITED, by the access kind whose budget ran out',
  labelNames: ['access'],
  registers: [processMetrics],
});
const rejected = { read: rejections.labels('read'), write: rejections.labels('write') };

const EMPTY_BODY_SHA256 = sha256Hex('');

function header(req: IncomingSignedRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function presentedKey(req: IncomingSignedRequest): string {
  const xKey = header(req, H.apiKey);
  const authz = header(req, 'authorization');
  const bearer =
    authz && /^Bearer\s+/i.test(authz) ? authz.replace(/^Bearer\s+/i, '').trim() : undefined;
  if (!xKey && !bearer) {
    throw errors.missingApiKey(
      'Send your API key in the X-API-Key header (or Authorization: Bearer <key>).',
    );
  }
  if (xKey && bearer && xKey !== bearer) {
    throw errors.invalidApiKey(
      'X-API-Key and Authorization: Bearer carry different keys; send one key.',
    );
  }
  return (xKey ?? bearer)!;
}

async function resolveKey(deps: PipelineDeps, req: IncomingSignedRequest): Promise<ResolvedKey> {
  const apiKey = presentedKey(req);
  const key = FORM.apiKey.test(apiKey) ? await deps.keys.resolve(apiKey) : null;
  if (!key || key.revoked)
    throw errors.invalidApiKey('The API key is unknown or has been revoked.');
  return key;
}

function checkScope(key: ResolvedKey, op: GuardedOperation): void {
  if (op.productionOnly && key.environment !== 'production') {
    throw errors.productionKeyRequired(
      "This operation needs a production key: ask the platform's operations team for production access (approval and identity checks), then sign with the pk_production_ key they issue.",
    );
  }
  if (op.stagingOnly && key.environment !== 'staging') {
    throw errors.stagingKeyRequired(
      'This operation belongs to the sandbox: sign it with a pk_staging_ key. Production has no test clocks, and its orders always live in real time.',
    );
  }
  if (!scopeCovers(key.scopes, op.scope)) {
    throw errors.insufficientScope(
      `This API key lacks the scope ${op.scope}, which this operation needs: ask the platform's operations team for a key that holds it.`,
    );
  }
}

function checkPartner(key: ResolvedKey): void {
  if (!key.partnerActive)
    throw errors.partnerInactive('The partner account is suspended; contact support.');
  if (key.environment === 'production' && !key.productionActive) {
    throw errors.environmentNotActive(
      "Production access is not active for this partner account yet: ask the platform's operations team to activate it; until then, use a staging key.",
    );
  }
}

function checkSignature(deps: PipelineDeps, key: ResolvedKey, req: IncomingSignedRequest): string {
  const signature = header(req, H.signature);
  const timestamp = header(req, H.timestamp);
  const nonce = header(req, H.nonce);
  if (!signature || !timestamp || !nonce) {
    throw errors.missingSignature(
      'Every request needs the X-Signature, X-Timestamp and X-Nonce headers.',
    );
  }
  if (!FORM.timestamp.test(timestamp)) {
    throw errors.invalidTimestamp(
      /^\d{13}$/.test(timestamp)
        ? 'X-Timestamp looks like milliseconds; send Unix time in seconds.'
        : 'X-Timestamp must be Unix time in whole seconds.',
    );
  }
  if (Math.abs(deps.clock() / 1000 - Number(timestamp)) > deps.clockSkewSeconds) {
    throw errors.staleRequest(
      'X-Timestamp is more than 5 minutes away from the server clock; check your clock and sign again.',
    );
  }
  if (!FORM.nonce.test(nonce)) {
    throw errors.invalidNonce(
      'X-Nonce must be 16 to 128 characters of A-Z a-z 0-9 . _ ~ - (a UUID works).',
    );
  }
  if (key.signingSecret === null) {
    throw errors.signingNotConfigured(
      'This API key has no usable signing secret; ask for a new key.',
    );
  }
  const canonical = canonicalRequest(
    { timestamp, nonce, method: req.method, url: req.url },
    req.rawBody && req.rawBody.length > 0 ? sha256Hex(req.rawBody) : EMPTY_BODY_SHA256,
  );
  const expected = Buffer.from(signCanonical(key.signingSecret, canonical), 'hex');
  if (
    !FORM.signature.test(signature) ||
    !timingSafeEqual(expected, Buffer.from(signature, 'hex'))
  ) {
    throw errors.invalidSignature(
      'X-Signature does not match the request; sign the exact method, path, query and body you send.',
    );
  }
  return nonce;
}

/**
 * The checks every partner request goes through, in the contract's order; the first failure
 * answers. Returns the caller and its rate-limit state.
 */
export async function authenticate(
  deps: PipelineDeps,
  op: GuardedOperation,
  req: IncomingSignedRequest,
): Promise<{ auth: AuthContext; rate: RateState }> {
  try {
    const result = await runChecks(deps, op, req);
    admitted.inc();
    return result;
  } catch (err) {
    outcomes.inc({ outcome: err instanceof AppError ? err.code : 'error' });
    throw err;
  }
}

async function runChecks(
  deps: PipelineDeps,
  op: GuardedOperation,
  req: IncomingSignedRequest,
): Promise<{ auth: AuthContext; rate: RateState }> {
  const key = await resolveKey(deps, req);
  checkScope(key, op);
  checkPartner(key);
  const nonce = checkSignature(deps, key, req);

  const limits = key.limits ?? deps.defaultLimits;
  const limit = op.access === 'read' ? limits.readsPerMinute : limits.writesPerMinute;
  let verdict: AdmitResult;
  try {
    verdict = await deps.guard.admit({ keyId: key.keyId, nonce, access: op.access, limit });
  } catch {
    // Fail closed: without the shared store a replay could pass unnoticed.
    throw errors.serviceUnavailable(
      'Replay protection is unavailable right now; nothing was changed. Retry shortly.',
    );
  }
  if (verdict.kind === 'replayed') {
    throw errors.nonceReplayed(
      'This X-Nonce was already used with this key; send a fresh nonce with every request.',
    );
  }
  if (verdict.kind === 'limited') {
    rejected[op.access].inc();
    throw errors.rateLimited(
      `Too many ${op.access} requests for this key; retry after ${verdict.resetSeconds} s.`,
      {
        ...rateHeaders({ limit: verdict.limit, remaining: 0, resetSeconds: verdict.resetSeconds }),
        'retry-after': String(verdict.resetSeconds),
      },
    );
  }
  const { keyId, appId, partnerId, environment, scopes } = key;
  return { auth: { keyId, appId, partnerId, environment, scopes }, rate: verdict };
}

export function rateHeaders(rate: RateState): Record<string, string> {
  return {
    'ratelimit-limit': String(rate.limit),
    'ratelimit-remaining': String(rate.remaining),
    'ratelimit-reset': String(rate.resetSeconds),
  };
}
