import { int, oneOf, type Env } from '../../platform/settings.ts';
import { META_GRAPH_URL, type MetaWhatsAppConfig } from './meta.ts';

export interface WhatsAppSettings {
  /** Unset: delivery codes go by SMS only (there is no WhatsApp outbox: the SMS one shows the code). */
  meta: MetaWhatsAppConfig | undefined;
}

/** Whether delivery codes also go by WhatsApp, read from the environment. */
export function whatsAppSettings(env: Env, problems: string[]): WhatsAppSettings {
  const provider = oneOf(env, 'WHATSAPP_PROVIDER', ['none', 'meta'] as const, 'none', problems);
  const timeoutMs = int(env, 'WHATSAPP_TIMEOUT_MS', 5_000, 100, 60_000, problems);
  if (provider !== 'meta') return { meta: undefined };
  const phoneNumberId = env.WHATSAPP_PHONE_NUMBER_ID ?? '';
  const accessToken = env.WHATSAPP_ACCESS_TOKEN ?? '';
  const template = env.WHATSAPP_TEMPLATE ?? '';
  const language = env.WHATSAPP_TEMPLATE_LANGUAGE || 'en';
  const apiUrl = env.WHATSAPP_API_URL || META_GRAPH_URL;
  // The phone number's id in WhatsApp Manager (digits), not the phone number itself.
  if (!/^\d{5,20}$/.test(phoneNumberId))
    problems.push(
      'WHATSAPP_PROVIDER=meta needs WHATSAPP_PHONE_NUMBER_ID: the id WhatsApp Manager shows for the number (digits)',
    );
  if (!accessToken || /\s/.test(accessToken))
    problems.push(
      'WHATSAPP_PROVIDER=meta needs WHATSAPP_ACCESS_TOKEN (a system user token, no spaces)',
    );
  // Meta's template names: lower-case letters, digits and underscores.
  if (!/^[a-z0-9_]{1,512}$/.test(template))
    problems.push(
      "WHATSAPP_PROVIDER=meta needs WHATSAPP_TEMPLATE: the approved authentication template's name (lower-case letters, digits, underscores)",
    );
  if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(language))
    problems.push(
      'WHATSAPP_TEMPLATE_LANGUAGE must be a template language code such as en or en_US',
    );
  if (!/^https?:\/\/[^/]/.test(apiUrl)) problems.push('WHATSAPP_API_URL must be an http(s) URL');
  return { meta: { phoneNumberId, accessToken, template, language, apiUrl, timeoutMs } };
}
