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
