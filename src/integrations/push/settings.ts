import { isLocalAddress } from '../../platform/http/loopback.ts';
import { int, oneOf, type Env } from '../../platform/settings.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** Who the push services may contact about our pushes: a mailto: or https: URL. */
  subject: string;
}

export interface PushSettings {
  /**
   * `off`: no Web Push (WEB_PUSH=off); `ephemeral`: a development server without keys, which makes
   * a pair at boot (subscriptions then last until the next restart); otherwise the configured keys.
   */
  vapid: VapidKeys | 'ephemeral' | 'off';
  /** Which endpoints couriers' browsers may register: push services only, unless this machine serves. */
  endpoints: 'push-services' | 'any';
  timeoutMs: number;
}

const NAMES = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const;

function keyProblem(env: Env): string | undefined {
  const pub = Buffer.from(env.VAPID_PUBLIC_KEY ?? '', 'base64url');
  const priv = Buffer.from(env.VAPID_PRIVATE_KEY ?? '', 'base64url');
  if (pub.length !== 65 || pub[0] !== 4)
    return 'VAPID_PUBLIC_KEY must be an uncompressed P-256 public key, base64url (npx web-push generate-vapid-keys)';
  if (priv.length !== 32) return 'VAPID_PRIVATE_KEY must be a 32-byte P-256 private key, base64url';
  if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s/]+\S*)$/.test(env.VAPID_SUBJECT ?? ''))
    return 'VAPID_SUBJECT must be a mailto: address or an https: URL that reaches the operators';
  return undefined;
}

/**
 * Web Push for the courier app, read from the environment. A server whose public address is not
 * this machine needs the three VAPID_* keys, or WEB_PUSH=off to go without push.
 */
export function pushSettings(env: Env, publicBaseUrl: string, problems: string[]): PushSettings {
  const on = oneOf(env, 'WEB_PUSH', ['on', 'off'] as const, 'on', problems) === 'on';
  const timeoutMs = int(env, 'WEB_PUSH_TIMEOUT_MS', 5_000, 100, 60_000, problems);
  const local = isLocalAddress(publicBaseUrl);
  const endpoints = local ? ('any' as const) : ('push-services' as const);
  if (!on) return { vapid: 'off', endpoints, timeoutMs };
  const given = NAMES.filter((n) => env[n]);
  if (given.length === 0 && local) return { vapid: 'ephemeral', endpoints, timeoutMs };
  if (given.length < NAMES.length) {
    problems.push(
      `Web Push needs ${NAMES.join(', ')} (npx web-push generate-vapid-keys), or WEB_PUSH=off to go without it`,
    );
    return { vapid: 'off', endpoints, timeoutMs };
  }
  const problem = keyProblem(env);
  if (problem) problems.push(problem);
  const [publicKey, privateKey, subject] = NAMES.map((n) => env[n]!) as [string, string, string];
  return { vapid: { publicKey, privateKey, subject }, endpoints, timeoutMs };
}
