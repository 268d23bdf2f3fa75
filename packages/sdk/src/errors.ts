export interface ErrorDetail {
  field: string;
  issue: string;
}

/** An error answered by the platform: decide on `code`, never on the HTTP status alone. */
export class PartnerApiError extends Error {
  override readonly name = 'PartnerApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly details: ErrorDetail[] | undefined,
    readonly headers: Record<string, string>,
  ) {
    super(message);
  }
}

/** The request never got an answer (connection refused, reset, timed out). */
export class PartnerNetworkError extends Error {
  override readonly name = 'PartnerNetworkError';
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
  }
}
