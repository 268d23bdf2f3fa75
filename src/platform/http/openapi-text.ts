import { DATE_RANGE } from './input-rules.ts';

/**
 * Prose of the reference (Markdown, as OpenAPI descriptions are). Kept apart from the document
 * builder so the builder stays about structure; numbers that are configuration come in as arguments.
 */

/** The signing design's first test vector; the docs tests recompute it with the SDK so the recipe can never drift. */
export const SIGNING_VECTOR = {
  secret: 'sk_example_secret',
  timestamp: '1763683200',
  nonce: '6f1c2a9e-4b7d-4e3a-9c51-0d2f8e7a1b3c',
  method: 'POST',
  url: '/api/v1/delivery/orders.get',
  body: '{"order_id":"dlv_01HZX"}',
  signature: 'e23ec0b87ec2919995239c4a6f300c89bd52ea8237877c830af28c88c02fcfed',
} as const;

export interface DocFacts {
  clockSkewSeconds: number;
  readsPerMinute: number;
  writesPerMinute: number;
}

export function signingRecipe(f: DocFacts): string {
  const v = SIGNING_VECTOR;
  return `Every request is signed. Send all four headers together: the key (\`X-API-Key\`, or \`Authorization: Bearer <key>\`), \`X-Timestamp\`, \`X-Nonce\` and \`X-Signature\`. A missing one answers 401 \`MISSING_SIGNATURE\`.

Canonical request: six lines joined by \`\\n\`, no trailing newline:

1. \`X-Timestamp\` exactly as sent: Unix time in whole seconds (13 digits, i.e. milliseconds, answer 401 \`INVALID_TIMESTAMP\`; more than ${f.clockSkewSeconds} s from the server clock answers 401 \`STALE_REQUEST\`).
2. \`X-Nonce\` exactly as sent: 16 to 128 characters of \`A-Z a-z 0-9 . _ ~ -\` (a UUID works), fresh for every request (reused: 409 \`NONCE_REPLAYED\`).
3. The HTTP method, upper case.
4. The path exactly as on the request line, without the query string.
5. The canonical query string: split on \`&\`, decode each name and value (\`+\` is a space), re-encode both with RFC 3986 rules (\`A-Z a-z 0-9 - . _ ~\` kept, everything else \`%XX\` upper case), sort by encoded name then encoded value (byte order), join as \`name=value\` with \`&\` (a bare \`flag\` becomes \`flag=\`). Empty when there is no query.
6. Lower-case hex SHA-256 of the raw body bytes (of the empty string when there is no body).

\`X-Signature\` = lower-case hex HMAC-SHA256 with the key's signing secret (\`sk_...\`, its UTF-8 bytes) as the key and the canonical request (UTF-8) as the message. Sign the exact bytes you send.

Test vector: secret \`${v.secret}\`, \`X-Timestamp: ${v.timestamp}\`, \`X-Nonce: ${v.nonce}\`, \`${v.method} ${v.url}\` with body \`${v.body}\` gives \`X-Signature: ${v.signature}\`.

Checks run in this order and the first failure answers: key, scope (and production-only), partner status, signature, replay, rate limit; then the body (JSON, then validation).`;
}

export function overview(f: DocFacts): string {
  return `One integration for the delivery and safe-catalog services. The API key decides the environment (\`pk_staging_...\` or \`pk_production_...\`); the base address is the same for both.

**Authentication.** Every operation needs an API key and a signed request: see the \`ApiKey\` and \`Signature\` security schemes for the recipe. Each operation names the scope its key must hold (\`x-scopes\`, and in the security requirement); \`x-production-only\` operations answer 403 \`PRODUCTION_KEY_REQUIRED\` to staging keys, and \`x-staging-only\` ones (the sandbox's test clocks) 403 \`STAGING_KEY_REQUIRED\` to production keys.

**Errors.** Every error has the body \`{status: "error", code, message, request_id, details?}\` (schema \`Error\`); branch on \`code\`. Each operation lists every code it can answer under its HTTP status. Before any operation is chosen, the HTTP layer answers with the same body: 400 \`BAD_REQUEST\` (not well-formed HTTP, a path that is not valid percent-encoding, no Host header), 431 \`HEADERS_TOO_LARGE\` (request line and headers over 16 KiB), 408 \`REQUEST_TIMEOUT\`; an unknown path or method, HEAD included, answers 404 \`NOT_FOUND\`.

**Input.** Bodies are JSON objects sent as \`Content-Type: application/json\` (UTF-8); anything else answers 415 \`UNSUPPORTED_MEDIA_TYPE\`, and a GET carries no body. No string may contain a control character (U+0000 to U+001F, U+007F to U+009F) or an unpaired surrogate, except that fields marked \`x-multiline\` accept tab, line feed and carriage return. Dates and date-times must be real ones from ${DATE_RANGE.min} to ${DATE_RANGE.max}; numbers must be finite and within each field's bounds. Such input answers the operation's validation code (\`VALIDATION_ERROR\`, or orders.create's own codes) with \`details\` naming the field.

**Rate limits.** Per key, in a rolling 60 s window: ${f.readsPerMinute} reads and ${f.writesPerMinute} writes by default (\`x-access\` says which an operation counts as; a bulk call is one write). Every authenticated answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`; a 429 also carries \`Retry-After\`.

**Sandbox test clocks.** A staging key can create a test clock frozen at a time it chooses and name it as \`test_clock_id\` on orders.estimate and orders.create: those orders (and quotes) live in the clock's time, and nothing moves them until \`test_clocks.advance\` moves the clock forward, when the sandbox courier's offer and moves, quote expiry, missed windows and the retries of failed webhook deliveries happen in order at the clock's time, with the webhook events they raise stamped with it.

**Versioning.** Within v1, response fields and optional request fields may be added; nothing is removed or renamed. Unknown request properties are refused.`;
}

export const TAG_TEXT: Readonly<Record<string, string>> = {
  delivery:
    'Same-day delivery orders in Ghana: price, create, track and cancel them; list delivery areas. Success bodies are `{status: "success", message, data}`.',
  'safe-catalog':
    'Products of vendors that opted into syndication, and single-vendor orders against them. Success bodies are `{status: "success", data}`.',
};

export const ADMIN_OVERVIEW = `The operator API (\`/admin/v1\`), for the people who run the platform: partner accounts, apps, keys, vendors, delivery areas and order moves, operators, the audit log and the production activation queue. Authenticate with \`Authorization: Bearer <ADMIN_TOKEN>\` (every role) or \`Bearer <operator token>\` (\`opt_...\`, held to the operator's roles: 403 \`FORBIDDEN\` otherwise); without an ADMIN_TOKEN configured the operator API (and this document) is off. Every successful change is written to the audit log. Same error body as the partner API.`;
