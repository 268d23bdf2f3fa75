import type { PushSender } from './sender.ts';
import type { PushSettings } from './settings.ts';
import { ephemeralKeys, VapidPushSender } from './web-push.ts';

export { PushError, type PushMessage, type PushSender, type PushTarget } from './sender.ts';
export { pushSettings, type PushSettings, type VapidKeys } from './settings.ts';
export { VapidPushSender } from './web-push.ts';

/** The courier app's Web Push sender, or nothing with WEB_PUSH=off. */
export function createPush(settings: PushSettings, publicBaseUrl: string): PushSender | undefined {
  if (settings.vapid === 'off') return undefined;
  if (settings.vapid === 'ephemeral')
    return new VapidPushSender(ephemeralKeys(publicBaseUrl), settings.timeoutMs, true);
  return new VapidPushSender(settings.vapid, settings.timeoutMs);
}
