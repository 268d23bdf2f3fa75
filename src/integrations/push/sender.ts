/** Where a push goes: a browser's push service endpoint and the browser's keys (RFC 8291). */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushMessage {
  /** The text the service worker is handed (JSON), encrypted for the browser alone. */
  payload: string;
  /** How long the push service may keep it for a phone that is off (seconds). */
  ttlSeconds: number;
  /** `high` wakes a phone in power saving: an offer is worth it. */
  urgency: 'normal' | 'high';
}

/**
 * Sends Web Push messages. `gone`: the push service answered 404 or 410, the subscription is dead
 * and is to be forgotten. Any other failure throws a PushError (nothing is retried: an offer's
 * push is worth nothing after the offer has lapsed, and the app's own stream shows it anyway).
 */
export interface PushSender {
  /** The VAPID public key browsers subscribe with (applicationServerKey), base64url. */
  readonly publicKey: string;
  /** One line for the start-up log. */
  readonly summary: string;
  send(to: PushTarget, message: PushMessage): Promise<'sent' | 'gone'>;
}

export class PushError extends Error {
  override readonly name = 'PushError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
