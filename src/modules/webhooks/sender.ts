import { webhookSignature } from '@partner-platform/protocol';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { AddressGate } from '../../platform/outbound/destinations.ts';
import {
  contextFromTraceparent,
  injectTraceHeaders,
  inSpan,
  recordHttpStatus,
  SpanKind,
} from '../../platform/tracing.ts';

const EXCERPT_BYTES = 1024;
const MAX_READ_BYTES = 64 * 1024;

export interface SendOptions {
  timeoutMs: number;
  /** The addresses this event may reach; the connection resolves names through it. */
  gate: AddressGate;
  /** The trace the event was written in, which the delivery continues and sends on. */
  traceparent?: string | null;
}

export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  excerpt: string | null;
  retryAfterSeconds: number | null;
}

/** Standard Webhooks signature: `v1,<base64 HMAC-SHA256>` per secret, space-separated during a rotation. */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  return secrets
    .map((secret) => `v1,${webhookSignature(secret, id, timestamp, body).toString('base64')}`)
    .join(' ');
}

function retryAfter(value: string | string[] | undefined): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const seconds = /^\d+$/.test(raw)
    ? Number(raw)
    : Math.ceil((Date.parse(raw) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 86_400) : null;
}

type Finish = (partial: Partial<SendResult>) => SendResult;

/**
 * POSTs one delivery. Redirects are not followed (a 3xx is a failure), the answer is read up to a
 * bounded size, and the whole exchange has one deadline. With tracing on it is a client span of
 * the event's trace, and the partner receives its `traceparent`.
 */
export async function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const done: Finish = (partial) => ({
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
    return done({ error: 'invalid URL' });
  }
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const refused = isIP(host) ? opts.gate.problem(host) : null;
  if (refused) return done({ error: `${host} ${refused}` });
  const attributes = { 'http.request.method': 'POST', 'server.address': host };
  return inSpan(
    'webhook.deliver',
    { kind: SpanKind.CLIENT, parent: contextFromTraceparent(opts.traceparent ?? null), attributes },
    async (span) => {
      const traced = { ...headers };
      injectTraceHeaders(traced);
      const result = await post(target, traced, body, opts, done);
      recordHttpStatus(span, result.statusCode, 400);
      return result;
    },
  );
}

/**
 * Kept-alive connections per gate: a connection is checked by its gate's lookup only when it opens,
 * so one opened for a staging event (which may reach local receivers) must never carry a production one.
 */
const agents = new WeakMap<AddressGate, { http: http.Agent; https: https.Agent }>();

function agentFor(gate: AddressGate, protocol: string): http.Agent {
  let pair = agents.get(gate);
  if (!pair)
    agents.set(
      gate,
      (pair = {
        http: new http.Agent({ keepAlive: true }),
        https: new https.Agent({ keepAlive: true }),
      }),
    );
  return protocol === 'https:' ? pair.https : pair.http;
}

function post(
  target: URL,
  headers: Record<string, string>,
  body: string,
  opts: SendOptions,
  done: Finish,
): Promise<SendResult> {
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        agent: agentFor(opts.gate, target.protocol),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'PartnerPlatform-Webhooks/1.0',
          ...headers,
        },
        lookup: opts.gate.lookup,
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
    req.on('error', (err) =>
      resolve(
        done({
          error:
            err.name === 'AbortError' || err.name === 'TimeoutError'
              ? `timed out after ${opts.timeoutMs} ms`
              : err.message,
        }),
      ),
    );
    req.end(body);
  });
}
