import { createHash, createHmac } from 'node:crypto';

/** AWS Signature Version 4 (header form), as S3 and the S3-compatible stores (MinIO, R2, …) check it. */
export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
}

export interface SigV4Request {
  method: string;
  url: URL;
  /** Headers to sign besides host, x-amz-date and x-amz-content-sha256 (lower- or mixed-case names). */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body (of the empty string when there is none). */
  payloadHash: string;
  now: Date;
}

export const sha256Hex = (data: Uint8Array | string) =>
  createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) =>
  createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding of one path segment or query part, as SigV4 wants it. */
export function uriEncode(s: string): string {
  return encodeURIComponent(s).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** 20130524T000000Z */
export const amzDate = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

function canonicalQuery(url: URL): string {
  return [...url.searchParams]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/**
 * The headers to send: the given ones plus host, x-amz-date, x-amz-content-sha256 and the
 * Authorization header signing all of them. `url.pathname` must already be encoded (S3 signs it as sent).
 */
export function signRequest(req: SigV4Request, creds: SigV4Credentials): Record<string, string> {
  const date = amzDate(req.now);
  const day = date.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    headers[name.toLowerCase()] = value.trim().replace(/\s+/g, ' ');
  headers.host = req.url.host;
  headers['x-amz-date'] = date;
  headers['x-amz-content-sha256'] = req.payloadHash;
  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(';');
  const canonical = [
    req.method,
    req.url.pathname || '/',
    canonicalQuery(req.url),
    ...names.map((n) => `${n}:${headers[n]}`),
    '',
    signedHeaders,
    req.payloadHash,
  ].join('\n');
  const scope = `${day}/${creds.region}/${creds.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonical)].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), creds.region), creds.service),
    'aws4_request',
  );
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  // fetch sends Host itself (from the URL signed above).
  delete headers.host;
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}
