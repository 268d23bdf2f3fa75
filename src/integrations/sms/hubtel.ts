/**
 * Hubtel SMS adapter behind SmsSender.
 *
 * Protocol as Hubtel publishes it (developers.hubtel.com "SMS API", and the client libraries it
 * links to): POST https://smsc.hubtel.com/v1/messages/send with HTTP Basic (client id : client
 * secret) and a JSON body { From (the sender id, at most 11 characters), To (the number, 233...),
 * Content }. A submitted message is answered 2xx with { messageId, status: 0, rate, networkId,
 * statusDescription }; any other `status` means it was not submitted.
 *
 * Not yet verified against the live service: the exact body and HTTP status of error answers (bad
 * credentials, unregistered sender id, bad number), and whether `To` is also accepted with a `+`
 * (we send digits only, as Hubtel's samples do).
 */
import { type Json, parseObject, providerWords, requestProvider } from '../provider-http.ts';
import type { SmsMessage, SmsSender, SmsSent } from './sender.ts';
import { SmsError } from './sender.ts';

export interface HubtelSmsConfig {
  clientId: string;
  clientSecret: string;
  /** The registered sender id shown to recipients (at most 11 characters). */
  senderId: string;
  /** Production: https://smsc.hubtel.com */
  baseUrl: string;
  timeoutMs: number;
}

export const HUBTEL_SMS_URL = 'https://smsc.hubtel.com';

export class HubtelSms implements SmsSender {
  readonly summary: string;
  readonly #config: HubtelSmsConfig;
  readonly #authorization: string;

  constructor(config: HubtelSmsConfig) {
    for (const key of ['clientId', 'clientSecret', 'senderId', 'baseUrl'] as const) {
      if (!config[key]) throw new TypeError(`HubtelSmsConfig.${key} is required`);
    }
    this.#config = { ...config, baseUrl: config.baseUrl.replace(/\/+$/, '') };
    this.#authorization = `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`;
    this.summary = `sms: Hubtel (${new URL(this.#config.baseUrl).host}) as ${config.senderId}`;
  }

  async send(message: SmsMessage): Promise<SmsSent> {
    const body = JSON.stringify({
      From: message.from ?? this.#config.senderId,
      To: message.to.replace(/^\+/, ''),
      Content: message.body,
    });
    const { status, text } = await requestProvider(
      `${this.#config.baseUrl}/v1/messages/send`,
      {
        method: 'POST',
        headers: {
          Authorization: this.#authorization,
          Accept: 'application/json',
          'Content-Type': 'application/json',
        },
        body,
        timeoutMs: this.#config.timeoutMs,
      },
      (why) => new SmsError(`Hubtel SMS: ${why}`),
    );
    const json = parseObject(text);
    if (status < 200 || status > 299)
      throw new SmsError(`Hubtel SMS: HTTP ${status}${this.#words(json)}`);
    if (!json) throw new SmsError(`Hubtel SMS: unreadable answer (HTTP ${status})`);
    const code = json.status ?? json.Status;
    if (code !== 0 && code !== '0')
      throw new SmsError(`Hubtel SMS: status ${String(code ?? 'missing')}${this.#words(json)}`);
    const id = json.messageId ?? json.MessageId;
    return { providerMessageId: typeof id === 'string' && id ? id : null };
  }

  /** Hubtel's own words, shortened and scrubbed of our secret. */
  #words(json: Json | null): string {
    const words = providerWords(json?.statusDescription ?? json?.message ?? json?.Message, [
      this.#config.clientSecret,
    ]);
    return words && `: ${words}`;
  }
}
