/** A delivery code for one recipient's WhatsApp: E.164 number, the 4-digit code. */
export interface WhatsAppCode {
  to: string;
  code: string;
}

/**
 * Where delivery codes go by WhatsApp. Not an SmsSender: WhatsApp only lets a business start a
 * conversation with a template Meta approved, so the sender is given the code, never free text.
 */
export interface WhatsAppSender {
  /** One line for the start-up log. */
  readonly summary: string;
  /** Resolves once Meta accepted the message; throws WhatsAppError otherwise. Never call it inside a transaction. */
  sendCode(message: WhatsAppCode): Promise<void>;
}

/** Meta's error code for a recipient who cannot receive the message (most often: not on WhatsApp). */
export const NOT_ON_WHATSAPP = 131026;

/** Meta refused the message, answered something unreadable, or did not answer in time. */
export class WhatsAppError extends Error {
  override readonly name = 'WhatsAppError';

  /** Meta's `error.code` when it answered one (131026, 130429, 190, ...). */
  constructor(
    message: string,
    readonly metaCode?: number,
  ) {
    super(message);
  }
}
