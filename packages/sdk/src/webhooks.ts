import { timingSafeEqual } from 'node:crypto';
import { WEBHOOK_HEADERS, webhookSignature } from '@partner-platform/protocol';
import type { AnyWebhookEvent } from './types.ts';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: Headers, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function')
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const value =
    (headers as Record<string, string | string[] | undefined>)[name] ??
    (headers as Record<string, string | string[] | undefined>)[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies a webhook from the platform (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) against your `whsec_` secret and the raw body exactly as received, and
 * returns the parsed event, typed by its `type` (`if (event.type === 'safe.order.paid') event.data...`).
 * Throws WebhookVerificationError for a bad signature or a timestamp more than `toleranceSeconds`
 * away from now (replays).
 */
export function verifyWebhook(
  secret: string,
  headers: Headers,
  rawBody: string | Uint8Array,
  opts: { toleranceSeconds?: number; now?: () => number } = {},
): AnyWebhookEvent {
  const id = header(headers, WEBHOOK_HEADERS.id);
  const timestamp = header(headers, WEBHOOK_HEADERS.timestamp);
  const signatures = header(headers, WEBHOOK_HEADERS.signature);
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError(
      'missing webhook-id, webhook-timestamp or webhook-signature',
    );
  if (!/^\d+$/.test(timestamp))
    throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const now = Math.floor((opts.now ?? Date.now)() / 1000);
  if (Math.abs(now - Number(timestamp)) > (opts.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('webhook-timestamp is too far from now');
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const expected = webhookSignature(secret, id, timestamp, body);
  const matches = signatures.split(' ').some((candidate) => {
    const [version, sig] = candidate.split(',');
    if (version !== 'v1' || !sig) return false;
    const given = Buffer.from(sig, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no signature matches this secret');
  return JSON.parse(body) as AnyWebhookEvent;
}
