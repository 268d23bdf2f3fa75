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

type Json = Record<string, unknown>;

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
    let status: number;
    let text: string;
    try {
      const res = await fetch(
        `${this.#config.apiUrl}/${encodeURIComponent(this.#config.phoneNumberId)}/messages`,
        {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${this.#config.accessToken}`,
            Accept: 'application/json',
            'Content-Type': 'application/json',
          },
          body,
          // A redirect would re-send the token somewhere Meta did not document.
          redirect: 'error',
          signal: AbortSignal.timeout(this.#config.timeoutMs),
        },
      );
      status = res.status;
      text = await res.text();
    } catch (err) {
      throw new WhatsAppError(`WhatsApp: ${this.#describe(err)}`);
    }
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

  #describe(err: unknown): string {
    const name = err instanceof Error ? err.name : '';
    if (name === 'TimeoutError' || name === 'AbortError')
      return `no answer within ${this.#config.timeoutMs} ms`;
    const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
    return `network failure${typeof cause?.code === 'string' ? ` (${cause.code})` : ''}`;
  }

  /** Meta's own words (the details, else the message), shortened and scrubbed of our token. */
  #words(error: Json | undefined): string {
    const data = error?.error_data as Json | undefined;
    const raw = data?.details ?? error?.message;
    if (typeof raw !== 'string' || !raw) return '';
    return `: ${raw.slice(0, 160).split(this.#config.accessToken).join('[redacted]')}`;
  }
}

function parseObject(text: string): Json | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Json)
      : null;
  } catch {
    return null;
  }
}
