/**
 * WhatsApp Business Cloud API (Meta's Graph API) adapter behind WhatsAppSender.
 *
 * Protocol as Meta documents it ("Sending authentication templates", "Error codes"):
 * POST {graph}/v21.0/{phone number id}/messages with `Authorization: Bearer {token}` and JSON
 * { messaging_product: "whatsapp", recipient_type: "individual", to (digits with the country
 * code), type: "template", template: { name, language: { code }, components } }. An authentication
 * template carries the code twice: as the body's only parameter and as the parameter of its copy-code
 * button (a `url` button at index 0); at most 15 characters. Accepted: 200 { messaging_product,
 * contacts: [{ input, wa_id }], messages: [{ id }] }. Refused: 4xx/5xx { error: { message, type,
 * code, error_subcode?, error_data: { messaging_product, details }, fbtrace_id } }, e.g. 190 (bad or
 * expired token), 131026 (the recipient cannot receive it: not on WhatsApp, old app, terms not
 * accepted), 130429 / 131056 (throughput or per-recipient rate limits), 132000/132001 (template
 * parameters or name/language wrong).
 *
 * An authentication template cannot carry a URL (Meta's rule for the category), so the tracking link
 * travels in the SMS that always goes with it. Meta also reports some failures later, by webhook
 * (131026 mostly does); we do not subscribe: the SMS is sent regardless, so there is nothing to fall
 * back to.
 */
import { type Json, parseObject, providerWords, requestProvider } from '../provider-http.ts';
import {
  NOT_ON_WHATSAPP,
  WhatsAppError,
  type WhatsAppCode,
  type WhatsAppSender,
} from './sender.ts';

export interface MetaWhatsAppConfig {
  phoneNumberId: string;
  accessToken: string;
  /** The approved authentication template's name and language (e.g. delivery_code, en). */
  template: string;
  language: string;
  /** Production: https://graph.facebook.com/v21.0 */
  apiUrl: string;
  timeoutMs: number;
}

export const META_GRAPH_URL = 'https://graph.facebook.com/v21.0';

export class MetaWhatsApp implements WhatsAppSender {
  readonly summary: string;
  readonly #config: MetaWhatsAppConfig;

  constructor(config: MetaWhatsAppConfig) {
    for (const key of ['phoneNumberId', 'accessToken', 'template', 'language', 'apiUrl'] as const) {
      if (!config[key]) throw new TypeError(`MetaWhatsAppConfig.${key} is required`);
    }
    this.#config = { ...config, apiUrl: config.apiUrl.replace(/\/+$/, '') };
    this.summary = `whatsapp: Meta Cloud API (${new URL(this.#config.apiUrl).host}), template ${config.template} (${config.language}), beside every delivery-code SMS`;
  }

  async sendCode({ to, code }: WhatsAppCode): Promise<void> {
    const parameters = [{ type: 'text', text: code }];
    const body = JSON.stringify({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: to.replace(/^\+/, ''),
      type: 'template',
      template: {
        name: this.#config.template,
        language: { code: this.#config.language },
        components: [
          { type: 'body', parameters },
          { type: 'button', sub_type: 'url', index: '0', parameters },
        ],
      },
    });
    const { status, text } = await requestProvider(
      `${this.#config.apiUrl}/${encodeURIComponent(this.#config.phoneNumberId)}/messages`,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${this.#config.accessToken}`,
          Accept: 'application/json',
          'Content-Type': 'application/json',
        },
        body,
        timeoutMs: this.#config.timeoutMs,
      },
      (why) => new WhatsAppError(`WhatsApp: ${why}`),
    );
    const json = parseObject(text);
    const error = json?.error as Json | undefined;
    if (status < 200 || status > 299 || error) {
      const code = typeof error?.code === 'number' ? error.code : undefined;
      const what =
        code === NOT_ON_WHATSAPP
          ? 'the recipient cannot receive WhatsApp messages'
          : `HTTP ${status}`;
      throw new WhatsAppError(
        `WhatsApp: ${what}${code === undefined ? '' : ` (code ${code})`}${this.#words(error)}`,
        code,
      );
    }
    const messages = json?.messages;
    if (!Array.isArray(messages) || typeof (messages[0] as Json | undefined)?.id !== 'string') {
      throw new WhatsAppError(`WhatsApp: unreadable answer (HTTP ${status})`);
    }
  }

  /** Meta's own words (the details, else the message), shortened and scrubbed of our token. */
  #words(error: Json | undefined): string {
    const data = error?.error_data as Json | undefined;
    const words = providerWords(data?.details ?? error?.message, [this.#config.accessToken]);
    return words && `: ${words}`;
  }
}
