import { int, oneOf, type Env } from '../../platform/settings.ts';
import { HUBTEL_SMS_URL } from './hubtel.ts';

export interface SmsSettings {
  /** Unset: the development outbox keeps every message (readable at /dev/sms). */
  hubtel:
    | {
        clientId: string;
        clientSecret: string;
        senderId: string;
        baseUrl: string;
        timeoutMs: number;
      }
    | undefined;
  /** Whether /dev/sms shows the development outbox: by default only when the public address is this machine. */
  devSmsPage: 'auto' | 'on' | 'off';
}

/** How text messages leave this server, read from the environment. */
export function smsSettings(env: Env, problems: string[]): SmsSettings {
  const provider = oneOf(env, 'SMS_PROVIDER', ['none', 'hubtel'] as const, 'none', problems);
  const devSmsPage = oneOf(env, 'DEV_SMS_PAGE', ['auto', 'on', 'off'] as const, 'auto', problems);
  const timeoutMs = int(env, 'SMS_TIMEOUT_MS', 10_000, 100, 60_000, problems);
  if (provider !== 'hubtel') return { hubtel: undefined, devSmsPage };
  const clientId = env.HUBTEL_SMS_CLIENT_ID ?? '';
  const clientSecret = env.HUBTEL_SMS_CLIENT_SECRET ?? '';
  const senderId = env.SMS_SENDER_ID ?? '';
  if (!clientId || !clientSecret)
    problems.push('SMS_PROVIDER=hubtel needs HUBTEL_SMS_CLIENT_ID and HUBTEL_SMS_CLIENT_SECRET');
  // Hubtel's sender ids: 1 to 11 letters, digits or spaces, registered with Hubtel beforehand.
  if (!/^[A-Za-z0-9 ]{1,11}$/.test(senderId))
    problems.push('SMS_PROVIDER=hubtel needs SMS_SENDER_ID: 1 to 11 letters, digits or spaces');
  const baseUrl = env.HUBTEL_SMS_URL || HUBTEL_SMS_URL;
  if (!/^https?:\/\/[^/]/.test(baseUrl)) problems.push('HUBTEL_SMS_URL must be an http(s) URL');
  return { hubtel: { clientId, clientSecret, senderId, baseUrl, timeoutMs }, devSmsPage };
}
