import { randomUUID } from 'node:crypto';
import { PartnerApiError, PartnerNetworkError } from './errors.ts';
import { signRequest } from './signing.ts';

export type Query = Record<string, string | number | boolean | undefined>;

export interface ClientOptions {
  apiKey: string;
  signingSecret: string;
  /** e.g. `http://localhost:8080`; both services share one base unless `catalogBaseUrl` is given. */
  baseUrl: string;
  catalogBaseUrl?: string;
  timeoutMs?: number;
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
}

export interface RawResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  body: T;
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

/** Signs and sends requests per the platform's signing rules (a fresh nonce per attempt). */
export class PartnerClient {
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;

  constructor(readonly options: ClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
  }

  /** Headers that authenticate one request; exposed for callers that send requests themselves. */
  signHeaders(method: string, url: string, body: string): Record<string, string> {
    const timestamp = String(Math.floor(this.now() / 1000));
    const nonce = randomUUID();
    const signature = signRequest(this.options.signingSecret, { timestamp, nonce, method, url, body });
    const keyHeader: Record<string, string> = this.options.bearer
      ? { authorization: `Bearer ${this.options.apiKey}` }
      : { 'x-api-key': this.options.apiKey };
    return { ...keyHeader, 'x-timestamp': timestamp, 'x-nonce': nonce, 'x-signature': signature };
  }

  /** Sends a signed request and returns the answer whatever its status. */
  async send<T = unknown>(method: string, path: string, opts: SendOptions = {}): Promise<RawResponse<T>> {
    const query = encodeQuery(opts.query);
    const url = query ? `${path}?${query}` : path;
    const body = opts.rawBody ?? (opts.body === undefined ? '' : JSON.stringify(opts.body));
    const headers: Record<string, string> = { ...this.signHeaders(method, url, body), ...opts.headers };
    if (body !== '') headers['content-type'] ??= 'application/json';
    const base = opts.baseUrl ?? this.options.baseUrl;
    let res: Response;
    try {
      res = await this.fetchImpl(new URL(url, base), {
        method,
        headers,
        body: body === '' ? undefined : body,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (err) {
      throw new PartnerNetworkError(`${method} ${path} failed: ${(err as Error).message}`, err);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON: hand back the text as is.
    }
    return { status: res.status, headers: Object.fromEntries(res.headers), body: parsed as T };
  }

  /** Sends a signed request; a non-2xx answer throws a PartnerApiError carrying its `code`. */
  async request<T = unknown>(method: string, path: string, opts: SendOptions = {}): Promise<T> {
    const res = await this.send<T>(method, path, opts);
    if (res.status >= 200 && res.status < 300) return res.body;
    const err = (res.body ?? {}) as { code?: string; message?: string; request_id?: string; details?: [] };
    throw new PartnerApiError(
      res.status,
      err.code ?? 'UNKNOWN_ERROR',
      err.message ?? `HTTP ${res.status}`,
      err.request_id ?? res.headers['x-request-id'],
      err.details,
      res.headers,
    );
  }

  readonly delivery = {
    health: () => this.request<{ status: 'ok' }>('GET', '/api/v1/delivery/health'),
  };

  readonly catalog = {
    health: () =>
      this.request<{ status: 'ok' }>('GET', '/api/v1/safe-catalog/health', { baseUrl: this.catalogBase }),
  };

  private get catalogBase(): string {
    return this.options.catalogBaseUrl ?? this.options.baseUrl;
  }
}
