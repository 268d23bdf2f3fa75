/** A text message to one phone: E.164 number, plain text. */
export interface SmsMessage {
  to: string;
  body: string;
  /** The sender id the recipient sees instead of the configured one (a partner app's own, registered with the provider). */
  from?: string | undefined;
}

/** What the provider answered for an accepted message: its id, which its delivery reports name. */
export interface SmsSent {
  providerMessageId: string | null;
}

/** Where text messages go: an SMS provider, or the development outbox. */
export interface SmsSender {
  /** One line for the start-up log: which provider sends, or where messages are kept. */
  readonly summary: string;
  /** Resolves once the provider accepted the message; throws SmsError otherwise. Never call it inside a transaction. */
  send(message: SmsMessage): Promise<SmsSent>;
}

/** The provider refused the message, answered something unreadable, or did not answer in time. */
export class SmsError extends Error {
  override readonly name = 'SmsError';
}
