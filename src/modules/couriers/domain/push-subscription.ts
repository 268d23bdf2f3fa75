/** A Web Push subscription as the courier app sends it (the browser's PushSubscription.toJSON()). Pure checks. */
export interface PushSubscriptionInput {
  endpoint: string;
  /** The browser's P-256 public key (65 bytes, uncompressed), base64url. */
  p256dh: string;
  /** The browser's 16-byte authentication secret, base64url. */
  auth: string;
}

/**
 * Which endpoints a subscription may name. `push-services`: https on the browsers' own push services
 * only, since the server posts to whatever URL is stored (a courier's account must not make it call
 * an internal address). `any`: http or https anywhere, for a development server and its local push
 * service.
 */
export type EndpointPolicy = 'push-services' | 'any';

/** Real endpoints are 150 to 500 characters; anything past this is not one. */
export const MAX_ENDPOINT_LENGTH = 1024;

/** The push services of Chrome, Edge, Firefox and Safari (host names, and their subdomains). */
export const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'push.services.mozilla.com',
  'notify.windows.com',
  'push.apple.com',
] as const;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function keyBytes(value: unknown, max: number): Buffer | undefined {
  if (typeof value !== 'string' || value.length > max || !BASE64URL.test(value)) return undefined;
  return Buffer.from(value, 'base64url');
}

function endpointProblem(value: unknown, policy: EndpointPolicy): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'endpoint must be a URL.';
  if (value.length > MAX_ENDPOINT_LENGTH)
    return `endpoint must be at most ${MAX_ENDPOINT_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'endpoint must be a URL.';
  }
  if (url.username || url.password) return 'endpoint must not carry a user name or password.';
  if (policy === 'any')
    return url.protocol === 'https:' || url.protocol === 'http:'
      ? undefined
      : 'endpoint must be an http(s) URL.';
  if (url.protocol !== 'https:') return 'endpoint must be an https URL.';
  const host = url.hostname.toLowerCase();
  return PUSH_SERVICE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`))
    ? undefined
    : "endpoint must be on a browser's push service.";
}

/** The subscription in a request body, or the sentence saying what is wrong with it. */
export function readPushSubscription(
  body: unknown,
  policy: EndpointPolicy,
): { subscription: PushSubscriptionInput } | { problem: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { problem: 'The body must be a JSON object.' };
  const b = body as Record<string, unknown>;
  const problem = endpointProblem(b.endpoint, policy);
  if (problem) return { problem };
  const keys = (typeof b.keys === 'object' && b.keys !== null ? b.keys : {}) as Record<
    string,
    unknown
  >;
  const p256dh = keyBytes(keys.p256dh, 100);
  if (p256dh?.length !== 65 || p256dh[0] !== 4)
    return { problem: 'keys.p256dh must be an uncompressed P-256 public key, base64url.' };
  if (keyBytes(keys.auth, 40)?.length !== 16)
    return { problem: 'keys.auth must be 16 bytes, base64url.' };
  return {
    subscription: {
      endpoint: b.endpoint as string,
      p256dh: keys.p256dh as string,
      auth: keys.auth as string,
    },
  };
}
