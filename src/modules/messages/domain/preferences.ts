import { LANGUAGES, type Language, type MessageKind } from './texts.ts';

/** An app's recipient messages: which go, from which sender name, in which language. */
export interface Preferences {
  kinds: Record<MessageKind, boolean>;
  /** The SMS sender id recipients see; null: the platform's own (SMS_SENDER_ID). */
  senderName: string | null;
  language: Language;
}

/** An app that never chose: the delivery code at assignment only (as before these settings), in English. */
export const DEFAULT_PREFERENCES: Preferences = {
  kinds: { assigned: true, courier_near: false, delivered: false, delivery_failed: false },
  senderName: null,
  language: 'en',
};

/**
 * An alphanumeric sender id: 1 to 11 letters, digits or spaces, with at least one letter (an
 * all-digit sender is a phone number to carriers), no leading or trailing space.
 */
const SENDER = /^(?=.*[A-Za-z])[A-Za-z0-9](?:[A-Za-z0-9 ]{0,9}[A-Za-z0-9])?$/;

export const SENDER_NAME_RULE =
  '1 to 11 letters, digits or spaces with at least one letter, not starting or ending with a space';

export const isSenderName = (name: string): boolean => SENDER.test(name);

export const isLanguage = (value: string): value is Language =>
  (LANGUAGES as readonly string[]).includes(value);
