import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/** Wrong codes allowed per order; after that the courier proves the delivery with a photo. */
export const MAX_CODE_ATTEMPTS = 5;

const CODE = /^\d{4}$/;

/** A fresh 4-digit code, 0000 to 9999, from the CSPRNG. */
export function generateCode(): string {
  return String(randomInt(0, 10_000)).padStart(4, '0');
}

export const isCodeShaped = (code: string) => CODE.test(code);

/** The code as stored: HMAC-SHA256 under the platform's key, salted with the order id (no table of 10,000 hashes fits every order). */
export function hashCode(key: Buffer, orderId: string, code: string): string {
  return createHmac('sha256', key).update(`${orderId}\n${code}`, 'utf8').digest('hex');
}

/** Whether `code` is the order's code, compared in constant time. */
export function codeMatches(
  key: Buffer,
  orderId: string,
  code: string,
  storedHash: string,
): boolean {
  if (!isCodeShaped(code)) return false;
  const given = Buffer.from(hashCode(key, orderId, code), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

export interface CodeMessage {
  code: string;
  trackingUrl: string;
  /** Who sends the parcel (the partner's name), when known. */
  sender?: string | undefined;
}

/**
 * The SMS (or WhatsApp) text the recipient receives at dispatch: the code, what to do with it, and
 * the tracking link. Plain ASCII, one segment-friendly paragraph per line.
 */
export function deliveryCodeMessage({ code, trackingUrl, sender }: CodeMessage): string {
  if (!isCodeShaped(code)) throw new Error('a delivery code is 4 digits');
  const from = sender
    ? `Your parcel from ${sender
        .replace(/[^\x20-\x7e]/g, '')
        .trim()
        .slice(0, 40)}`
    : 'Your parcel';
  return `${from} is on its way. Delivery code: ${code}. Give it to the courier only when you receive the parcel.\nTrack it: ${trackingUrl}`;
}
