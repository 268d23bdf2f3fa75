import { MetaWhatsApp } from './meta.ts';
import type { WhatsAppSender } from './sender.ts';
import type { WhatsAppSettings } from './settings.ts';

export {
  NOT_ON_WHATSAPP,
  WhatsAppError,
  type WhatsAppCode,
  type WhatsAppSender,
} from './sender.ts';
export { MetaWhatsApp, META_GRAPH_URL, type MetaWhatsAppConfig } from './meta.ts';
export { whatsAppSettings, type WhatsAppSettings } from './settings.ts';

/** Meta's Cloud API when WHATSAPP_PROVIDER=meta; nothing otherwise (delivery codes then go by SMS only). */
export function createWhatsApp(settings: WhatsAppSettings): WhatsAppSender | undefined {
  return settings.meta && new MetaWhatsApp(settings.meta);
}
