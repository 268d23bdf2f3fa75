export { PartnerClient, USER_AGENT } from './client.ts';
export type {
  ClientOptions,
  Exchange,
  Query,
  RawResponse,
  RequestOptions,
  SendOptions,
} from './client.ts';
export type { DeliveryApi } from './delivery.ts';
export type { CatalogApi } from './catalog.ts';
export {
  apiErrorFrom,
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PartnerApiError,
  PartnerConfigError,
  PartnerNetworkError,
  PaymentRequiredError,
  PermissionError,
  RateLimitError,
  ServerError,
} from './errors.ts';
export type { ErrorDetail } from './errors.ts';
export { OPERATIONS } from './operations.ts';
export type { OperationId, OperationInfo } from './operations.ts';
export type { RetryMode } from './retry.ts';
export {
  canonicalQuery,
  canonicalRequest,
  rfc3986Encode,
  sha256Hex,
  signCanonical,
  signRequest,
  splitUrl,
} from '@partner-platform/protocol';
export type { CanonicalRequestParts } from '@partner-platform/protocol';
export { verifyWebhook, WebhookVerificationError } from './webhooks.ts';
export type * from './types.ts';
export { VERSION } from './version.ts';
