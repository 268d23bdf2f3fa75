import type { Value } from './args.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** `METHOD /path/:param`, below `/admin/v1`: the operator API route a command calls. */
export type Route = `${Method} /${string}`;

/** What a command asks of the operator API; the path is below `/admin/v1`. */
export interface ApiRequest {
  method: Method;
  path: string;
  query?: Record<string, Value>;
  body?: unknown;
}

/**
 * The request for a route: each `:name` of its path is filled, URL-encoded, with the value named `NAME` in
 * `values` (the command's positionals); the payload is the query of a GET and the body of anything else.
 */
export function requestFor(
  route: Route,
  values: Readonly<Record<string, Value>>,
  payload?: unknown,
): ApiRequest {
  const [method, template] = route.split(' ') as [Method, string];
  const path = template.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(String(values[name.toUpperCase()])),
  );
  return method === 'GET'
    ? { method, path, query: payload as Record<string, Value> | undefined }
    : { method, path, body: payload };
}

export interface Connection {
  baseUrl: string;
  token: string;
  timeoutMs?: number;
}

export interface ApiAnswer {
  status: number;
  /** Parsed JSON, the raw text when it is not JSON, undefined when empty. */
  body: unknown;
  requestId: string | undefined;
}

/** The API answered with an error status. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly answer: ApiAnswer,
    readonly code: string,
    message: string,
    readonly details: { field?: string; issue?: string }[],
  ) {
    super(message);
  }
}

/** The API could not be reached at all. */
class ConnectionError extends Error {
  override readonly name = 'ConnectionError';
}

function queryString(query: Record<string, Value> | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === false) continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Sends one operator API request; resolves for 2xx, throws ApiError or ConnectionError otherwise. */
export async function send(conn: Connection, req: ApiRequest): Promise<ApiAnswer> {
  const url = `${conn.baseUrl}/admin/v1${req.path}${queryString(req.query)}`;
  const hasBody = req.body !== undefined;
  let res: Response;
  try {
    res = await fetch(url, {
      method: req.method,
      headers: {
        authorization: `Bearer ${conn.token}`,
        accept: 'application/json',
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
      },
      body: hasBody ? JSON.stringify(req.body) : undefined,
      signal: AbortSignal.timeout(conn.timeoutMs ?? 30_000),
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const reason =
      e.name === 'TimeoutError'
        ? 'no answer within 30 s'
        : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new ConnectionError(`cannot reach the operator API at ${conn.baseUrl} (${reason})`);
  }
  const raw = await res.text();
  let body: unknown = raw === '' ? undefined : raw;
  if (raw !== '') {
    try {
      body = JSON.parse(raw);
    } catch {
      // Not JSON (a proxy's error page, say): kept as text.
    }
  }
  const requestId =
    (typeof body === 'object' &&
    body !== null &&
    typeof (body as { request_id?: unknown }).request_id === 'string'
      ? (body as { request_id: string }).request_id
      : undefined) ??
    res.headers.get('x-request-id') ??
    undefined;
  const answer: ApiAnswer = { status: res.status, body, requestId };
  if (res.ok) return answer;
  const err = (typeof body === 'object' && body !== null ? body : {}) as {
    code?: unknown;
    message?: unknown;
    details?: unknown;
  };
  if (typeof err.code === 'string' && typeof err.message === 'string') {
    throw new ApiError(
      answer,
      err.code,
      err.message,
      Array.isArray(err.details) ? err.details : [],
    );
  }
  throw new ApiError(
    answer,
    `HTTP_${res.status}`,
    `the server answered HTTP ${res.status} ${res.statusText} without an error body`,
    [],
  );
}
