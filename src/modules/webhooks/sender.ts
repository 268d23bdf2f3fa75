import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { addressKind } from './url-policy.ts';

const EXCERPT_BYTES = 1024;
const MAX_READ_BYTES = 64 * 1024;

export interface SendOptions {
  timeoutMs: number;
  /** Refuse destinations that resolve to loopback, private, link-local or metadata addresses. */
  publicOnly: boolean;
}

export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  excerpt: string | null;
  retryAfterSeconds: number | null;
}

/** Standard Webhooks signature: `v1,<base64 HMAC-SHA256>` per secret, space-separated during a rotation. */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

class BlockedDestination extends Error {}

/**
 * Resolves like dns.lookup but refuses non-public answers. The connection uses the address checked
 * here, so a name that changes its answer between a check and the connection (DNS rebinding)
 * cannot slip through.
 */
function publicLookup(hostname: string, options: object, callback: (...args: any[]) => void): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err);
    if (addresses.length === 0 || addresses.some((a) => addressKind(a.address) !== 'public')) {
      return callback(new BlockedDestination(`${hostname} resolves to a non-public address`));
    }
    if ((options as { all?: boolean }).all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

function retryAfter(value: string | string[] | undefined): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const seconds = /^\d+$/.test(raw) ? Number(raw) : Math.ceil((Date.parse(raw) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 86_400) : null;
}

/**
 * POSTs one delivery. Redirects are not followed (a 3xx is a failure), the answer is read up to a
 * bounded size, and the whole exchange has one deadline.
 */
export function sendWebhook(url: string, headers: Record<string, string>, body: string, opts: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const done = (partial: Partial<SendResult>): SendResult => ({
    statusCode: null,
    error: null,
    excerpt: null,
    retryAfterSeconds: null,
    ...partial,
    latencyMs: Math.round(performance.now() - started),
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done({ error: 'invalid URL' }));
  }
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (opts.publicOnly && isIP(host) && addressKind(host) !== 'public') {
    return Promise.resolve(done({ error: `${host} is not a public address` }));
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'PartnerPlatform-Webhooks/1.0', ...headers },
        ...(opts.publicOnly ? { lookup: publicLookup as never } : {}),
        signal: AbortSignal.timeout(opts.timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read <= EXCERPT_BYTES) chunks.push(chunk);
          if (read > MAX_READ_BYTES) res.destroy();
        });
        const finish = () =>
          resolve(
            done({
              statusCode: res.statusCode ?? null,
              excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
              retryAfterSeconds: retryAfter(res.headers['retry-after']),
            }),
          );
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    req.on('error', (err) => resolve(done({ error: err.name === 'AbortError' || err.name === 'TimeoutError' ? `timed out after ${opts.timeoutMs} ms` : err.message })));
    req.end(body);
  });
}
