import { randomUUID } from 'node:crypto';
import { SIGNED_REQUEST_HEADERS as H, signRequest } from '@partner-platform/protocol';
import { catalogApi, type CatalogApi } from './catalog.ts';
import { deliveryApi, type DeliveryApi } from './delivery.ts';
import { parseRetryAfter, PartnerConfigError, PartnerNetworkError, unwrap } from './errors.ts';
import type { OperationInfo } from './operations.ts';
import { backoffMs, classifyAnswer, neverSent, sleep, type RetryMode } from './retry.ts';
import { VERSION } from './version.ts';

/** Sent on every request, so the platform's logs tell SDK versions apart. */
export const USER_AGENT = `partner-platform-sdk/${VERSION} node/${process.versions.node}`;

export type Query = Record<string, string | number | boolean | undefined>;

export interface ClientOptions {
  apiKey: string;
  signingSecret: string;
  /** e.g. `http://localhost:8080`; both services share one base unless `catalogBaseUrl` is given. */
  baseUrl: string;
  catalogBaseUrl?: string;
  /** Per attempt, in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 2); 0 turns retries off. */
  maxRetries?: number;
  /** First backoff step in milliseconds (default 500), doubled each retry up to `retryMaxDelayMs` (default 8 000). */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** A `Retry-After` longer than this (seconds, default 30) is not waited for: the error is thrown at once. */
  maxRetryAfterSeconds?: number;
  /** Send the key as `Authorization: Bearer` instead of `X-API-Key`. */
  bearer?: boolean;
  fetch?: typeof fetch;
  /** Clock in milliseconds, for tests. */
  now?: () => number;
}

export interface SendOptions {
  body?: unknown;
  /** A raw body string, sent exactly as given (for tests of malformed JSON). */
  rawBody?: string;
  query?: Query | string;
  headers?: Record<string, string>;
  baseUrl?: string;
  /** Cancels the call (and any retry wait); not retried. */
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface RequestOptions extends SendOptions {
  /** Default: `idempotent` for GET, `unsafe` (only provably harmless repeats) otherwise. */
  retry?: RetryMode;
}

export interface RawResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  body: T;
}

/** An answer after retries, with what the SDK needs to resolve a duplicate reference. */
export interface Exchange<T = unknown> extends RawResponse<T> {
  attempts: number;
  /** An earlier attempt failed in a way that may still have created something. */
  earlierMayHaveLanded: boolean;
}

function encodeQuery(query: Query | string | undefined): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query;
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.join('&');
}

const ok = (status: number) => status >= 200 && status < 300;

const FROM = 'from data/sandbox-credentials.json, or from partner-admin keys create';
const REQUIRED = {
  apiKey: `pk_staging_... ${FROM}`,
  signingSecret: `sk_staging_... ${FROM}`,
  baseUrl: 'e.g. http://localhost:8080: base_url in data/sandbox-credentials.json',
} as const;

/** Missing credentials and unusable addresses fail here, at construction, not as a failed request later. */
function checkOptions(options: ClientOptions): void {
  for (const [name, hint] of Object.entries(REQUIRED)) {
    const value: unknown = options[name as keyof typeof REQUIRED];
    if (typeof value !== 'string' || value.trim() === '')
      throw new PartnerConfigError(`${name} is required (${hint})`);
  }
  for (const name of ['baseUrl', 'catalogBaseUrl'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    const protocol = URL.canParse(value) ? new URL(value).protocol : undefined;
    if (protocol !== 'http:' && protocol !== 'https:')
      throw new PartnerConfigError(
        `${name} must be an http(s) URL such as http://localhost:8080, not ${JSON.stringify(value)}`,
      );
  }
}

/**
 * Signs and sends requests per the platform's signing rules: a fresh nonce and timestamp for every
 * attempt, typed methods for every operation (`client.delivery...`, `client.catalog...`),
 * timeouts and retries with backoff.
 */
export class PartnerClient {
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  readonly delivery: DeliveryApi;
  readonly catalog: CatalogApi;

  /** Throws PartnerConfigError when `apiKey` or `signingSecret` is missing, or a base URL is not http(s). */
  constructor(readonly options: ClientOptions) {
    checkOptions(options);
    this.fetchImpl = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.delivery = deliveryApi(this);
    this.catalog = catalogApi(this);
  }

  /** A client with the same credentials and some options changed, e.g. `{ timeoutMs: 5000 }`. */
  withOptions(overrides: Partial<ClientOptions>): PartnerClient {
    return new PartnerClient({ ...this.options, ...overrides });
  }

  /** Headers that authenticate one request; exposed for callers that send requests themselves. */
  signHeaders(method: string, url: string, body: string): Record<string, string> {
    const timestamp = String(Math.floor(this.now() / 1000));
    const nonce = randomUUID();
    const signature = signRequest(this.options.signingSecret, {
      timestamp,
      nonce,
      method,
      url,
      body,
    });
    const keyHeader: Record<string, string> = this.options.bearer
      ? { authorization: `Bearer ${this.options.apiKey}` }
      : { [H.apiKey]: this.options.apiKey };
    return { ...keyHeader, [H.timestamp]: timestamp, [H.nonce]: nonce, [H.signature]: signature };
  }

  /** Sends one signed attempt (no retry) and returns the answer whatever its status. */
  async send<T = unknown>(
    method: string,
    path: string,
    opts: SendOptions = {},
  ): Promise<RawResponse<T>> {
    const query = encodeQuery(opts.query);
    const url = query ? `${path}?${query}` : path;
    const body = opts.rawBody ?? (opts.body === undefined ? '' : JSON.stringify(opts.body));
    const headers: Record<string, string> = {
      'user-agent': USER_AGENT,
      ...this.signHeaders(method, url, body),
      ...opts.headers,
    };
    if (body !== '') headers['content-type'] ??= 'application/json';
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs ?? 30_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    try {
      const res = await this.fetchImpl(new URL(url, opts.baseUrl ?? this.options.baseUrl), {
        method,
        headers,
        body: body === '' ? undefined : body,
        signal,
      });
      // Read inside the try: a connection cut or a timeout mid-body is a network error too.
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {
        // Not JSON (a proxy's error page): hand back the text as is.
      }
      return { status: res.status, headers: Object.fromEntries(res.headers), body: parsed as T };
    } catch (err) {
      const timedOut = timeout.aborted && !opts.signal?.aborted;
      const reason = timedOut
        ? `timed out after ${timeoutMs} ms`
        : ((err as Error).message ?? String(err));
      const detail = (err as { cause?: { code?: string } }).cause?.code;
      const netErr = new PartnerNetworkError(
        `${method} ${path} failed: ${reason}${detail ? ` (${detail})` : ''}`,
        err,
      );
      netErr.timedOut = timedOut;
      throw netErr;
    }
  }

  /**
   * Sends with retries per `mode` (see RetryMode) and returns the last answer whatever its status;
   * network failures that are not retried (or run out of retries) throw PartnerNetworkError.
   */
  async exchange<T = unknown>(
    method: string,
    path: string,
    opts: SendOptions,
    mode: RetryMode,
  ): Promise<Exchange<T>> {
    const maxRetries = mode === 'none' ? 0 : Math.max(0, this.options.maxRetries ?? 2);
    const base = this.options.retryBaseDelayMs ?? 500;
    const cap = this.options.retryMaxDelayMs ?? 8_000;
    let earlierMayHaveLanded = false;
    for (let attempt = 1; ; attempt++) {
      const canRetry = attempt <= maxRetries;
      let res: RawResponse<T>;
      try {
        res = await this.send<T>(method, path, opts);
      } catch (err) {
        const netErr = err as PartnerNetworkError;
        const unsent = neverSent(netErr);
        const retryable = !opts.signal?.aborted && (mode !== 'unsafe' || unsent);
        if (!canRetry || !retryable) {
          netErr.attempts = attempt;
          throw netErr;
        }
        if (!unsent) earlierMayHaveLanded = true;
        await sleep(backoffMs(attempt, base, cap), opts.signal);
        continue;
      }
      if (ok(res.status) || !canRetry) return { ...res, attempts: attempt, earlierMayHaveLanded };
      const code = (res.body as { code?: unknown } | null)?.code;
      const verdict = classifyAnswer(res.status, typeof code === 'string' ? code : undefined, mode);
      if (!verdict.retry) return { ...res, attempts: attempt, earlierMayHaveLanded };
      const retryAfter = parseRetryAfter(res.headers['retry-after'], this.now());
      let delay = backoffMs(attempt, base, cap);
      if (retryAfter !== undefined) {
        // Waiting less than asked would only earn another 429: give the caller the error instead.
        if (retryAfter > (this.options.maxRetryAfterSeconds ?? 30))
          return { ...res, attempts: attempt, earlierMayHaveLanded };
        delay = retryAfter * 1000 + Math.round(Math.random() * Math.min(250, base));
      }
      if (verdict.mayHaveLanded) earlierMayHaveLanded = true;
      await sleep(delay, opts.signal);
    }
  }

  /** Sends a signed request with retries; a non-2xx answer throws a typed PartnerApiError carrying its `code`. */
  async request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const mode = opts.retry ?? (method.toUpperCase() === 'GET' ? 'idempotent' : 'unsafe');
    return unwrap(await this.exchange<T>(method, path, opts, mode));
  }

  /** Calls a partner operation from OPERATIONS (internal to the typed methods). */
  async call<T>(op: OperationInfo, opts: SendOptions = {}): Promise<Exchange<T>> {
    const baseUrl =
      op.service === 'safe-catalog'
        ? (this.options.catalogBaseUrl ?? this.options.baseUrl)
        : this.options.baseUrl;
    return this.exchange<T>(op.method, op.path, { baseUrl, ...opts }, op.retry);
  }
}
