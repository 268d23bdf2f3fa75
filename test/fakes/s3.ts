/**
 * A local stand-in for an S3-compatible object store (path-style: /<bucket>/<key>), speaking the
 * protocol the S3 adapter uses: PUT, GET and DELETE Object, with AWS Signature V4 in the
 * Authorization header checked the way S3 checks it (its own implementation here, not the
 * adapter's): credential scope, signed headers (host and x-amz-date required), the payload's
 * SHA-256 against x-amz-content-sha256, a request time within 15 minutes, and the signature.
 * Errors are S3's XML bodies with S3's codes (NoSuchKey, NoSuchBucket, SignatureDoesNotMatch …).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeS3Options {
  bucket?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** The fake's clock (ms), for request-time checks. */
  clock?: () => number;
}

export interface FakeS3Request {
  method: string;
  path: string;
  status: number;
  /** The S3 error code answered, if any. */
  error?: string;
}

export interface FakeS3 {
  url: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Objects by key: what was stored, with its content type. */
  objects: Map<string, { bytes: Buffer; contentType: string }>;
  requests: FakeS3Request[];
  close(): Promise<void>;
}

const hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) =>
  createHmac('sha256', key).update(data).digest();
const encode = (s: string) =>
  encodeURIComponent(s).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

function xmlError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

/** Checks the request's Signature V4; answers the S3 error code, or undefined when it is valid. */
function signatureProblem(
  req: IncomingMessage,
  body: Buffer,
  opts: Required<Omit<FakeS3Options, 'bucket'>>,
): string | undefined {
  const auth = req.headers.authorization ?? '';
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return 'AuthorizationHeaderMalformed';
  const [, keyId, day, region, signedHeaders, signature] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (keyId !== opts.accessKeyId) return 'InvalidAccessKeyId';
  if (region !== opts.region) return 'AuthorizationHeaderMalformed';
  const date = String(req.headers['x-amz-date'] ?? '');
  const at = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(date);
  if (!at || date.slice(0, 8) !== day) return 'AuthorizationHeaderMalformed';
  const time = Date.UTC(+at[1]!, +at[2]! - 1, +at[3]!, +at[4]!, +at[5]!, +at[6]!);
  if (Math.abs(time - opts.clock()) > 15 * 60_000) return 'RequestTimeTooSkewed';
  const names = signedHeaders.split(';');
  if (
    !names.includes('host') ||
    !names.includes('x-amz-date') ||
    [...names].sort().join(';') !== signedHeaders
  )
    return 'AuthorizationHeaderMalformed';
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== hex(body))
    return 'XAmzContentSHA256Mismatch';
  const headerValue = (n: string) => {
    const v = req.headers[n];
    return v === undefined
      ? undefined
      : (Array.isArray(v) ? v.join(',') : v).trim().replace(/\s+/g, ' ');
  };
  if (names.some((n) => headerValue(n) === undefined)) return 'AccessDenied';
  const url = new URL(req.url ?? '/', 'http://fake');
  const query = [...url.searchParams]
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .sort()
    .join('&');
  const canonical = [
    req.method,
    url.pathname,
    query,
    ...names.map((n) => `${n}:${headerValue(n)}`),
    '',
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const key = hmac(
    hmac(hmac(hmac(`AWS4${opts.secretAccessKey}`, day), region), 's3'),
    'aws4_request',
  );
  const expected = createHmac('sha256', key)
    .update(['AWS4-HMAC-SHA256', date, scope, hex(canonical)].join('\n'))
    .digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'))
    ? undefined
    : 'SignatureDoesNotMatch';
}

const STATUS: Record<string, number> = {
  AuthorizationHeaderMalformed: 400,
  XAmzContentSHA256Mismatch: 400,
  InvalidAccessKeyId: 403,
  RequestTimeTooSkewed: 403,
  AccessDenied: 403,
  SignatureDoesNotMatch: 403,
};

export async function startFakeS3(options: FakeS3Options = {}): Promise<FakeS3> {
  const opts = {
    region: 'eu-west-1',
    accessKeyId: 'AKIAFAKES3TEST000001',
    secretAccessKey: 'fake/secret+key/0123456789abcdefghijklmn',
    clock: Date.now,
    ...options,
  };
  const bucket = options.bucket ?? 'proofs-test';
  const objects = new Map<string, { bytes: Buffer; contentType: string }>();
  const requests: FakeS3Request[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const answer = (status: number, error?: string) =>
      requests.push({ method: req.method ?? '', path, status, ...(error ? { error } : {}) });
    const problem = signatureProblem(req, body, opts);
    if (problem) {
      answer(STATUS[problem]!, problem);
      return xmlError(
        res,
        STATUS[problem]!,
        problem,
        'The request signature we calculated does not match the signature you provided.',
      );
    }
    const [, b, ...rest] = path.split('/');
    const key = rest.map(decodeURIComponent).join('/');
    if (b !== bucket) {
      answer(404, 'NoSuchBucket');
      return xmlError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    }
    if (req.method === 'PUT') {
      objects.set(key, {
        bytes: body,
        contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
      });
      answer(200);
      res.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` });
      return res.end();
    }
    if (req.method === 'GET') {
      const found = objects.get(key);
      if (!found) {
        answer(404, 'NoSuchKey');
        return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      }
      answer(200);
      res.writeHead(200, {
        'content-type': found.contentType,
        'content-length': found.bytes.length,
      });
      return res.end(found.bytes);
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      answer(204);
      res.writeHead(204);
      return res.end();
    }
    answer(405, 'MethodNotAllowed');
    return xmlError(
      res,
      405,
      'MethodNotAllowed',
      'The specified method is not allowed against this resource.',
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bucket,
    region: opts.region,
    accessKeyId: opts.accessKeyId,
    secretAccessKey: opts.secretAccessKey,
    objects,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The settings that point the platform's S3 adapter at this fake. */
export function s3Env(fake: FakeS3): Record<string, string> {
  return {
    STORAGE: 's3',
    S3_ENDPOINT: fake.url,
    S3_BUCKET: fake.bucket,
    S3_REGION: fake.region,
    S3_ACCESS_KEY_ID: fake.accessKeyId,
    S3_SECRET_ACCESS_KEY: fake.secretAccessKey,
  };
}
