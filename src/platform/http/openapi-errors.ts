import { AppError, errors } from '../errors.ts';
import type { Operation } from './operation.ts';

/**
 * code → HTTP status, read from the `errors` factories so a code's status is decided in one place
 * (errors.ts) and the document can never disagree with what the server answers.
 */
export const STATUS_OF_CODE: ReadonlyMap<string, number> = new Map(
  Object.values(errors).flatMap((make) => {
    try {
      const e: unknown = (make as (message: string) => unknown)('');
      return e instanceof AppError ? [[e.code, e.statusCode] as const] : [];
    } catch {
      // A factory with another signature is skipped; statusOf then reports its code as unknown.
      return [];
    }
  }),
);

export function statusOf(code: string): number {
  const status = STATUS_OF_CODE.get(code);
  // A code the server cannot answer with is a documentation bug: fail the build of the document.
  if (status === undefined)
    throw new Error(`unknown error code ${code}: it has no factory in src/platform/errors.ts`);
  return status;
}

/** When each code is answered: the one-line meaning shown in the reference (design: Errors, and the contract). */
export const CODE_HINTS: Readonly<Record<string, string>> = {
  BAD_REQUEST:
    'The request is not well-formed HTTP (request line, headers, body framing, path encoding) or lacks a Host header.',
  INVALID_JSON: 'The body is not JSON, or not a JSON object.',
  VALIDATION_ERROR:
    'A request field is missing or invalid (a GET with a body too); `details` names each field.',
  MISSING_REQUIRED_FIELD: 'The order lacks a required field; `details` names it.',
  INVALID_ORDER_PAYLOAD: 'An order field has an invalid value, or an unknown property was sent.',
  INVALID_ORDER_STATUS:
    'The order is already delivered or cancelled, or is being returned or was returned to its pickup point.',
  BATCH_EMPTY: '`orders` is an empty array.',
  BATCH_TOO_LARGE: '`orders` is missing, not an array, or has more than 100 items.',
  OUT_OF_STOCK: 'An item asks for more than is available; `details` names the variant.',
  MARKUP_NOT_SUPPORTED_FOR_COD: 'A reseller markup above 0 was sent with cash on delivery.',
  CONFLICTING_COORDINATES:
    '`delivery.coordinates` and `delivery.lat`/`lng` were both sent and name different points.',
  QUOTE_NOT_FOUND:
    'The quote_id is unknown, or was issued by orders.estimate to another app or environment.',
  QUOTE_EXPIRED: 'The quote is past its quote_expires_at: ask orders.estimate for a new one.',
  QUOTE_ALREADY_USED: 'Another order already redeemed this quote; each quote prices one order.',
  QUOTE_MISMATCH:
    "The order's pickup or delivery coordinates are not the points the quote priced (both are required with a quote), or the quote was issued on another test clock (or on none).",
  TEST_CLOCK_NOT_FOUND:
    'No test clock with this id belongs to the app: unknown, deleted, or another app’s (also when an order or estimate names it).',
  TEST_CLOCK_NOT_ALLOWED:
    'A production key sent test_clock_id: production orders and estimates never live on a test clock.',
  TEST_CLOCK_BACKWARDS:
    "The new frozen_time is not after the clock's time: a clock only moves forward.",
  TEST_CLOCK_ADVANCE_TOO_FAR: "The new frozen_time is more than 60 days after the clock's time.",
  TEST_CLOCK_TIME_OUT_OF_RANGE: 'frozen_time is more than 365 days from today.',
  TEST_CLOCK_LIMIT_REACHED: 'The app already keeps 100 test clocks; delete one first.',
  TEST_CLOCK_ADVANCING:
    'The clock is advancing: wait for status ready before advancing, deleting it or creating on it.',
  DELIVERY_WINDOW_INVALID:
    '`pickup_ready_at` or `dropoff_deadline` is not a date-time with its offset (e.g. 2026-12-01T10:00:00Z), or holds a control character.',
  DELIVERY_WINDOW_IN_PAST:
    '`pickup_ready_at` is more than 5 minutes ago, or `dropoff_deadline` has passed.',
  DELIVERY_WINDOW_TOO_FAR: 'A window field is more than 14 days ahead.',
  DELIVERY_WINDOW_REVERSED: '`dropoff_deadline` is not after `pickup_ready_at`.',
  DELIVERY_WINDOW_TOO_SHORT:
    'From `pickup_ready_at` (or now) to `dropoff_deadline` is shorter than the minimum window (60 minutes by default).',
  DELIVERY_WINDOW_ON_HOLIDAY: 'A window field falls on a Ghana public holiday; `details` names it.',
  DELIVERY_WINDOW_OUTSIDE_SERVICE_HOURS:
    'A window field falls on a Sunday or outside the service hours (08:00 to 20:00 Accra time, Monday to Saturday).',
  MISSING_API_KEY: 'No X-API-Key header (nor Authorization: Bearer).',
  INVALID_API_KEY: 'The API key is unknown or revoked.',
  MISSING_SIGNATURE: 'X-Signature, X-Timestamp or X-Nonce is absent.',
  INVALID_TIMESTAMP: 'X-Timestamp is not whole Unix seconds (13 digits: milliseconds were sent).',
  STALE_REQUEST: 'X-Timestamp is more than 5 minutes away from the server clock.',
  INVALID_NONCE: 'X-Nonce is not 16 to 128 characters of A-Z a-z 0-9 . _ ~ -.',
  INVALID_SIGNATURE: 'X-Signature does not match the canonical request.',
  SIGNING_NOT_CONFIGURED: 'The key has no usable signing secret; ask for a new key.',
  INVALID_ADMIN_TOKEN: 'Authorization: Bearer <ADMIN_TOKEN> is missing or wrong.',
  INSUFFICIENT_WALLET_BALANCE: 'The wallet (plus credit headroom) does not cover the fee.',
  INSUFFICIENT_SCOPE: 'The key lacks the scope the operation needs; the message names it.',
  PRODUCTION_KEY_REQUIRED: 'A staging key was used on a production-only operation.',
  STAGING_KEY_REQUIRED: 'A production key was used on a sandbox operation (test clocks).',
  PARTNER_INACTIVE: 'The partner account is suspended.',
  ENVIRONMENT_NOT_ACTIVE:
    "A production key was used while the partner's production access is not active.",
  NOT_FOUND: 'There is no such operation (wrong path or method).',
  ORDER_NOT_FOUND: 'The order does not exist or belongs to another app.',
  PRODUCT_NOT_FOUND: 'The product does not exist, is inactive, or its vendor is not syndicated.',
  SALE_NOT_FOUND: 'The sale does not exist or belongs to another app or environment.',
  PAYOUT_NOT_FOUND: 'The payout does not exist or was made to another payee.',
  TOPUP_NOT_FOUND: 'The top-up does not exist or belongs to another partner.',
  REQUEST_TIMEOUT: 'The request did not arrive in full in time.',
  NONCE_REPLAYED: 'This X-Nonce was already used with this key.',
  DUPLICATE_ORDER_REFERENCE:
    'The order_reference was already used: confirm with orders.get, never create again.',
  DUPLICATE_REFERENCE: 'The external_reference already holds an order: use orders.get.',
  INVALID_TRANSITION: 'The state machine forbids this status move.',
  PAYLOAD_TOO_LARGE: 'The body is larger than 1 MiB.',
  UNSUPPORTED_MEDIA_TYPE:
    'The body is not sent as Content-Type: application/json (UTF-8), or that header is malformed.',
  HEADERS_TOO_LARGE: 'The request line and headers are larger than 16 KiB.',
  RATE_LIMITED: "Over the key's limit; retry after the Retry-After seconds.",
  INTERNAL_ERROR: 'Something unexpected failed; the request_id helps support.',
  GATEWAY_ERROR: 'The payment gateway failed or timed out; nothing was charged or credited.',
  SERVICE_UNAVAILABLE:
    'The database or shared store is unreachable; nothing was changed. Retry shortly.',
  PAYMENTS_NOT_CONFIGURED:
    'This deployment has no payment gateway for production; nothing was created or charged. Retrying does not help: the operator must configure one.',
};

export const hintOf = (code: string): string => CODE_HINTS[code] ?? code;

/** Codes the signed-request pipeline (src/platform/auth/pipeline.ts) can answer on every operation. */
const PIPELINE_CODES = [
  'MISSING_API_KEY',
  'INVALID_API_KEY',
  'MISSING_SIGNATURE',
  'INVALID_TIMESTAMP',
  'STALE_REQUEST',
  'INVALID_NONCE',
  'INVALID_SIGNATURE',
  'SIGNING_NOT_CONFIGURED',
  'INSUFFICIENT_SCOPE',
  'PARTNER_INACTIVE',
  'ENVIRONMENT_NOT_ACTIVE',
  'NONCE_REPLAYED',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;

/** Every code an operation can answer, grouped by status (ascending), codes in a stable order. */
export function errorCodesByStatus(op: Operation): Map<number, string[]> {
  const codes = new Set<string>(PIPELINE_CODES);
  if (op.productionOnly) codes.add('PRODUCTION_KEY_REQUIRED');
  if (op.stagingOnly) codes.add('STAGING_KEY_REQUIRED');
  const hasBody = Boolean(op.body || op.parseBody);
  if (hasBody) {
    codes.add('INVALID_JSON');
    codes.add('PAYLOAD_TOO_LARGE');
    codes.add('UNSUPPORTED_MEDIA_TYPE');
  }
  // A custom body validation answer lists its own codes in errorCodes; the query, and a body sent
  // with a GET, always use the default.
  if ((op.body && !op.validationError) || op.querystring || op.method === 'GET')
    codes.add('VALIDATION_ERROR');
  for (const code of op.errorCodes ?? []) codes.add(code);
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = statusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus.entries()].sort(([a], [b]) => a - b));
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not authenticated: key or signature',
  402: 'Payment required',
  403: 'Forbidden: scope, environment or account',
  404: 'Not found',
  408: 'Request timeout',
  409: 'Conflict: replayed nonce or duplicate reference',
  413: 'Payload too large',
  415: 'Unsupported media type',
  431: 'Headers too large',
  429: 'Rate limited',
  500: 'Internal error',
  502: 'Payment gateway error',
  503: 'Service unavailable',
};

export const statusText = (status: number): string => STATUS_TEXT[status] ?? 'Error';

/** Errors (design): the one error body of every route. */
export const ERROR_SCHEMA = {
  type: 'object',
  description:
    'The error body of every route. Every response also carries X-Request-Id equal to request_id.',
  required: ['status', 'code', 'message', 'request_id'],
  properties: {
    status: { const: 'error', type: 'string' },
    code: {
      type: 'string',
      description: 'Machine-readable code; branch on it, never on the message.',
    },
    message: { type: 'string', description: 'One plain sentence a partner can act on.' },
    request_id: {
      type: 'string',
      pattern: '^req_',
      description: 'Equal to the X-Request-Id header; quote it to support.',
    },
    details: {
      type: 'array',
      description: 'Present for validation failures: one entry per field.',
      items: { $ref: '#/components/schemas/ErrorDetail' },
    },
  },
} as const;

export const ERROR_DETAIL_SCHEMA = {
  type: 'object',
  required: ['field', 'issue'],
  properties: {
    field: { type: 'string', description: 'Dotted path of the field, e.g. customer.phone' },
    issue: { type: 'string', description: 'What is wrong with it' },
  },
} as const;

const DETAILED = new Set([
  'VALIDATION_ERROR',
  'MISSING_REQUIRED_FIELD',
  'INVALID_ORDER_PAYLOAD',
  'OUT_OF_STOCK',
]);

/** A plausible error body for one code (an example in the document; it validates against ERROR_SCHEMA). */
export function errorExample(code: string): Record<string, unknown> {
  return {
    status: 'error',
    code,
    message: hintOf(code).replace(/`/g, ''),
    request_id: 'req_01JD2X5V8T3N0Q6W4RZK7B9MPE',
    ...(DETAILED.has(code) ? { details: [{ field: 'customer.phone', issue: 'is required' }] } : {}),
  };
}
