/**
 * Paystack's HTTP API as both the collections gateway (paystack.ts) and the transfers adapter
 * (integrations/transfers/paystack.ts) speak it (paystack.com/docs/api): every call carries
 * `Authorization: Bearer <secret key>`, every answer is JSON `{ status: boolean, message, data }`,
 * amounts are integers in the currency's subunit (pesewas for GHS), and webhooks are signed with
 * `x-paystack-signature`, the hex HMAC-SHA512 of the raw body keyed by the same secret key.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { injectTraceHeaders, inSpan, recordHttpStatus, SpanKind } from '../../platform/tracing.ts';
import { GatewayError } from './gateway.ts';
import {
  asObject,
  hostOf,
  type Json,
  parseObject,
  providerWords,
  requestProvider,
} from '../provider-http.ts';

export interface PaystackConfig {
  secretKey: string;
  /** Production: https://api.paystack.co (test and live differ only by key). */
  baseUrl: string;
  timeoutMs: number;
}

export const PAYSTACK_BASE_URL = 'https://api.paystack.co';

/** An answer Paystack gave, good or bad: 4xx answers are data to callers (e.g. "not found"). */
export interface PaystackAnswer {
  httpStatus: number;
  ok: boolean;
  message: string;
  data: Json | null;
  /** `data` when Paystack answered a list (e.g. a transaction's refunds). */
  list: unknown[] | null;
  /** How long Paystack asked us to wait (its Retry-After header, seconds or a date), when it said. */
  retryAfterMs: number | null;
}

export class PaystackClient {
  readonly #config: PaystackConfig;

  constructor(config: PaystackConfig) {
    if (!config.secretKey) throw new TypeError('PaystackConfig.secretKey is required');
    if (!config.baseUrl) throw new TypeError('PaystackConfig.baseUrl is required');
    if (!Number.isFinite(config.timeoutMs) || config.timeoutMs <= 0)
      throw new TypeError('PaystackConfig.timeoutMs must be positive');
    this.#config = { ...config, baseUrl: config.baseUrl.replace(/\/+$/, '') };
  }

  /**
   * One request. Timeouts, network failures, 5xx, 401/403 (our key) and unreadable answers are a
   * GatewayError; other 4xx answers are returned for the caller to judge.
   */
  async call(
    operation: string,
    method: 'GET' | 'POST',
    path: string,
    body?: Json,
  ): Promise<PaystackAnswer> {
    const url = `${this.#config.baseUrl}${path}`;
    const attributes = { 'http.request.method': method, 'server.address': hostOf(url) };
    const { status, text, headers } = await inSpan(
      `paystack ${operation}`,
      { kind: SpanKind.CLIENT, attributes },
      async (span) => {
        const headers: Record<string, string> = {
          Authorization: `Bearer ${this.#config.secretKey}`,
          Accept: 'application/json',
        };
        if (body) headers['Content-Type'] = 'application/json';
        injectTraceHeaders(headers);
        const answer = await requestProvider(
          url,
          {
            method,
            headers,
            body: body ? JSON.stringify(body) : null,
            timeoutMs: this.#config.timeoutMs,
          },
          (why) => new GatewayError(`Paystack ${operation}: ${why}`),
        );
        recordHttpStatus(span, answer.status, 500);
        return answer;
      },
    );
    const json = parseObject(text);
    const message = this.#scrub(typeof json?.message === 'string' ? json.message : '');
    if (status >= 500 || status === 401 || status === 403)
      throw new GatewayError(
        `Paystack ${operation}: HTTP ${status}${message ? `: ${message}` : ''}`,
      );
    if (!json || typeof json.status !== 'boolean')
      throw new GatewayError(`Paystack ${operation}: unreadable answer (HTTP ${status})`);
    const ok = status >= 200 && status <= 299 && json.status;
    return {
      httpStatus: status,
      ok,
      message,
      data: asObject(json.data),
      list: Array.isArray(json.data) ? json.data : null,
      retryAfterMs: retryAfterMs(headers.get('retry-after')),
    };
  }

  /** A successful answer's data, or a GatewayError naming what Paystack said. */
  async expectData(
    operation: string,
    method: 'GET' | 'POST',
    path: string,
    body?: Json,
  ): Promise<Json> {
    const answer = await this.call(operation, method, path, body);
    if (!answer.ok || !answer.data)
      throw new GatewayError(
        `Paystack ${operation}: HTTP ${answer.httpStatus}${answer.message ? `: ${answer.message}` : ''}`,
      );
    return answer.data;
  }

  /** A webhook's body when its signature is right (constant-time compare), else null. */
  verifiedEvent(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer | string,
  ): { event: string; data: Json } | null {
    const header = headers['x-paystack-signature'];
    const given = typeof header === 'string' ? header : '';
    if (!/^[0-9a-f]{128}$/i.test(given)) return null;
    const expected = Buffer.from(paystackSignature(this.#config.secretKey, rawBody), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) return null;
    const body = parseObject(Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : rawBody);
    const data = asObject(body?.data);
    if (!body || typeof body.event !== 'string' || !data) return null;
    return { event: body.event, data };
  }

  /** Paystack's words, shortened, never echoing our key. */
  #scrub(text: string): string {
    return providerWords(text, [this.#config.secretKey]);
  }
}

/** A Retry-After header (delay-seconds or an HTTP date) in milliseconds from now; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The signature Paystack puts in `x-paystack-signature` (also used by the test fake). */
export function paystackSignature(secretKey: string, rawBody: string | Buffer): string {
  return createHmac('sha512', secretKey).update(rawBody).digest('hex');
}
