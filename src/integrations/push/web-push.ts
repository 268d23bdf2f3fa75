import webpush from 'web-push';
import { PushError, type PushMessage, type PushSender, type PushTarget } from './sender.ts';
import type { VapidKeys } from './settings.ts';

/**
 * Web Push with VAPID (RFC 8292) and aes128gcm payloads (RFC 8291) through the `web-push` library,
 * which builds the request (encryption, signed JWT); the request itself goes by fetch, so that a
 * local push service over http works in development and tests, redirects are never followed, and
 * the timeout is ours.
 */
export class VapidPushSender implements PushSender {
  readonly publicKey: string;
  readonly summary: string;

  constructor(
    private readonly keys: VapidKeys,
    private readonly timeoutMs: number,
    ephemeral = false,
  ) {
    this.publicKey = keys.publicKey;
    this.summary = ephemeral
      ? 'web push: no VAPID keys configured, so a pair was made for this run (development only): browsers subscribed before a restart must subscribe again'
      : `web push: on, VAPID subject ${keys.subject}`;
  }

  async send(to: PushTarget, message: PushMessage): Promise<'sent' | 'gone'> {
    const request = webpush.generateRequestDetails(
      { endpoint: to.endpoint, keys: { p256dh: to.p256dh, auth: to.auth } },
      message.payload,
      {
        vapidDetails: this.keys,
        TTL: message.ttlSeconds,
        urgency: message.urgency,
        contentEncoding: 'aes128gcm',
      },
    );
    let response: Response;
    try {
      response = await fetch(request.endpoint, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: request.body ? new Uint8Array(request.body) : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.body?.cancel();
    } catch (err) {
      throw new PushError(`the push service did not answer: ${(err as Error).message}`);
    }
    if (response.status === 404 || response.status === 410) return 'gone';
    if (response.status >= 200 && response.status < 300) return 'sent';
    throw new PushError(`the push service answered ${response.status}`, response.status);
  }
}

/** A VAPID key pair made now: a development server's when none is configured. */
export function ephemeralKeys(publicBaseUrl: string): VapidKeys {
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  // web-push refuses a localhost https: subject; a mailto: one is accepted everywhere.
  return { publicKey, privateKey, subject: `mailto:dev@${new URL(publicBaseUrl).hostname}` };
}
