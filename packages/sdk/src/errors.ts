export interface ErrorDetail {
  field: string;
  issue: string;
}

/** Seconds from a `Retry-After` header (delta seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(
  value: string | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** An error answered by the platform: decide on `code`, never on the HTTP status alone. */
export class PartnerApiError extends Error {
  override readonly name: string = 'PartnerApiError';
  /** Seconds the platform asked to wait (429 and some 503s), from `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;
  /** How many attempts were made before giving up (1 when nothing was retried). */
  attempts = 1;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly details: ErrorDetail[] | undefined,
    readonly headers: Record<string, string>,
  ) {
    super(message);
    this.retryAfterSeconds = parseRetryAfter(headers['retry-after']);
  }
}

/** 400, 413: the request itself is wrong (`details` names the fields). */
export class InvalidRequestError extends PartnerApiError {
  override readonly name = 'InvalidRequestError';
}
/** 401: key, signature, timestamp or nonce. */
export class AuthenticationError extends PartnerApiError {
  override readonly name = 'AuthenticationError';
}
/** 402: the wallet (plus credit headroom) does not cover the fee. */
export class PaymentRequiredError extends PartnerApiError {
  override readonly name = 'PaymentRequiredError';
}
/** 403: scope, partner status, or a staging key on a production-only operation. */
export class PermissionError extends PartnerApiError {
  override readonly name = 'PermissionError';
}
/** 404: unknown operation, or a resource that does not exist or belongs to another app. */
export class NotFoundError extends PartnerApiError {
  override readonly name = 'NotFoundError';
}
/** 409: duplicate reference or replayed nonce. */
export class ConflictError extends PartnerApiError {
  override readonly name = 'ConflictError';
}
/** 429: wait `retryAfterSeconds`. */
export class RateLimitError extends PartnerApiError {
  override readonly name = 'RateLimitError';
}
/** 5xx: the platform or a gateway behind it failed. */
export class ServerError extends PartnerApiError {
  override readonly name = 'ServerError';
}

type ApiErrorClass = new (
  ...args: ConstructorParameters<typeof PartnerApiError>
) => PartnerApiError;

function classFor(status: number): ApiErrorClass {
  if (status === 400 || status === 413 || status === 422) return InvalidRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 402) return PaymentRequiredError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServerError;
  return PartnerApiError;
}

/** The typed error for a non-2xx answer; the body is the platform's error shape when it is one. */
export function apiErrorFrom(
  status: number,
  body: unknown,
  headers: Record<string, string>,
): PartnerApiError {
  const err = (body !== null && typeof body === 'object' ? body : {}) as {
    code?: unknown;
    message?: unknown;
    request_id?: unknown;
    details?: unknown;
  };
  const Class = classFor(status);
  return new Class(
    status,
    typeof err.code === 'string' ? err.code : 'UNKNOWN_ERROR',
    typeof err.message === 'string' ? err.message : `HTTP ${status}`,
    typeof err.request_id === 'string' ? err.request_id : headers['x-request-id'],
    Array.isArray(err.details) ? (err.details as ErrorDetail[]) : undefined,
    headers,
  );
}

/** The client's options are missing or wrong: thrown by `new PartnerClient(...)`, before any request. */
export class PartnerConfigError extends Error {
  override readonly name = 'PartnerConfigError';
}

/** The request never got an answer (connection refused, reset, timed out). */
export class PartnerNetworkError extends Error {
  override readonly name = 'PartnerNetworkError';
  /** True when the attempt was cut by `timeoutMs`. */
  timedOut = false;
  /** How many attempts were made before giving up. */
  attempts = 1;
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** The body of a 2xx answer, else the typed error for it. */
export function unwrap<T>(res: {
  status: number;
  body: T;
  headers: Record<string, string>;
  attempts?: number;
}): T {
  if (res.status >= 200 && res.status < 300) return res.body;
  const err = apiErrorFrom(res.status, res.body, res.headers);
  err.attempts = res.attempts ?? 1;
  throw err;
}
