import { createHash, createHmac } from 'node:crypto';

/** The headers of a signed request, lower case as Node presents them; the key may come as `authorization: Bearer` instead. */
export const SIGNED_REQUEST_HEADERS = {
  apiKey: 'x-api-key',
  signature: 'x-signature',
  timestamp: 'x-timestamp',
  nonce: 'x-nonce',
} as const;

/**
 * The forms the server accepts for the signed headers: a value outside its form is refused before
 * any signature is computed. (Stateless patterns, no `g` flag: safe to share.)
 */
export const SIGNED_REQUEST_FORMS = {
  apiKey: /^pk_(staging|production)_[A-Za-z0-9_-]{16,128}$/,
  /** Unix time in whole seconds. */
  timestamp: /^\d{1,12}$/,
  nonce: /^[A-Za-z0-9._~-]{16,128}$/,
  /** Lower- or upper-case hex HMAC-SHA256. */
  signature: /^[0-9a-fA-F]{64}$/,
} as const;

/** RFC 3986 unreserved characters stay; everything else becomes upper-case %XX of its UTF-8 bytes. */
export function rfc3986Encode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function decodeQueryComponent(value: string): string {
  const spaced = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A malformed escape cannot be decoded; sign it as written so both sides still agree.
    return spaced;
  }
}

/**
 * The canonical query line: pairs decoded, re-encoded with RFC 3986 rules, sorted by
 * encoded name then encoded value (byte order), joined with `&`; a bare `flag` becomes `flag=`.
 */
export function canonicalQuery(rawQuery: string): string {
  const query = rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery;
  if (query === '') return '';
  const pairs: Array<[string, string]> = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? '' : part.slice(eq + 1);
    pairs.push([
      rfc3986Encode(decodeQueryComponent(name)),
      rfc3986Encode(decodeQueryComponent(value)),
    ]);
  }
  // Encoded strings are ASCII, so code-unit comparison is byte order.
  pairs.sort((a, b) =>
    a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0,
  );
  return pairs.map(([n, v]) => `${n}=${v}`).join('&');
}

export function sha256Hex(body: string | Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

export interface CanonicalRequestParts {
  timestamp: string;
  nonce: string;
  method: string;
  /** The request target as sent, e.g. `/api/v1/x?b=2&a=1`; the query part is canonicalised. */
  url: string;
  /** Raw body bytes; an absent body hashes as the empty string. */
  body?: string | Uint8Array;
}

export function splitUrl(url: string): { path: string; query: string } {
  const q = url.indexOf('?');
  return q === -1 ? { path: url, query: '' } : { path: url.slice(0, q), query: url.slice(q + 1) };
}

export function canonicalRequest(parts: CanonicalRequestParts, bodyHashHex?: string): string {
  const { path, query } = splitUrl(parts.url);
  return [
    parts.timestamp,
    parts.nonce,
    parts.method.toUpperCase(),
    path,
    canonicalQuery(query),
    bodyHashHex ?? sha256Hex(parts.body ?? ''),
  ].join('\n');
}

/** Lower-case hex HMAC-SHA256 keyed with the signing secret's UTF-8 bytes. */
export function signCanonical(signingSecret: string, canonical: string): string {
  return createHmac('sha256', signingSecret).update(canonical, 'utf8').digest('hex');
}

export function signRequest(signingSecret: string, parts: CanonicalRequestParts): string {
  return signCanonical(signingSecret, canonicalRequest(parts));
}
