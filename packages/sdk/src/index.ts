export { PartnerClient } from './client.ts';
export type { ClientOptions, Query, RawResponse, SendOptions } from './client.ts';
export { PartnerApiError, PartnerNetworkError } from './errors.ts';
export type { ErrorDetail } from './errors.ts';
export { canonicalQuery, canonicalRequest, rfc3986Encode, sha256Hex, signCanonical, signRequest, splitUrl } from './signing.ts';
export type { CanonicalRequestParts } from './signing.ts';
export { verifyWebhook, WebhookVerificationError } from './webhooks.ts';
export type { WebhookEvent } from './webhooks.ts';
