import { int, type Env } from '../../platform/settings.ts';
import { CALLBACK_SECRET, CALLBACK_SECRET_RULE } from '../delivery/index.ts';

/** What recipient messages cost and how the SMS provider calls back. */
export interface MessageSettings {
  /** Charged to the partner's wallet per SMS segment (RECIPIENT_SMS_PESEWAS_PER_SEGMENT; 0: free). */
  smsPesewasPerSegment: number;
  /** Charged per WhatsApp message (RECIPIENT_WHATSAPP_PESEWAS). */
  whatsappPesewas: number;
  /** How often the sender looks for retries coming due (MESSAGES_POLL_MS); commits wake it at once. */
  pollMs: number;
  /** The secret in the SMS provider's callback URLs (SMS_CALLBACK_SECRET); unset: no report or inbound route. */
  callbackSecret: string | undefined;
}

/** Free until operations set a price: an existing partner's wallet moves only once someone decides it should. */
export const DEFAULT_MESSAGE_SETTINGS: MessageSettings = {
  smsPesewasPerSegment: 0,
  whatsappPesewas: 0,
  pollMs: 5_000,
  callbackSecret: undefined,
};

export function messageSettings(env: Env, problems: string[]): MessageSettings {
  const d = DEFAULT_MESSAGE_SETTINGS;
  const raw = env.SMS_CALLBACK_SECRET;
  let callbackSecret: string | undefined;
  if (raw) {
    if (CALLBACK_SECRET.test(raw)) callbackSecret = raw;
    else problems.push(`SMS_CALLBACK_SECRET must be ${CALLBACK_SECRET_RULE}`);
  }
  return {
    smsPesewasPerSegment: int(
      env,
      'RECIPIENT_SMS_PESEWAS_PER_SEGMENT',
      d.smsPesewasPerSegment,
      0,
      10_000,
      problems,
    ),
    whatsappPesewas: int(env, 'RECIPIENT_WHATSAPP_PESEWAS', d.whatsappPesewas, 0, 10_000, problems),
    pollMs: int(env, 'MESSAGES_POLL_MS', d.pollMs, 0, 600_000, problems),
    callbackSecret,
  };
}
