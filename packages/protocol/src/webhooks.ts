import { createHmac } from 'node:crypto';

/** Standard Webhooks header names. */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/**
 * The raw HMAC-SHA256 of `{id}.{timestamp}.{body}`; `webhook-signature` carries it base64 after `v1,`.
 * The key is the base64 part of the `whsec_` secret, decoded (request signing instead keys with
 * the `sk_` string's UTF-8 bytes).
 */
export function webhookSignature(
  secret: string,
  id: string,
  timestamp: string | number,
  body: string,
): Buffer {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
}
