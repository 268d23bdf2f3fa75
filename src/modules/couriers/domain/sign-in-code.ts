/** One-time sign-in codes of couriers: pure rules (code making and checking, the request throttle). */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

export const CODE_DIGITS = 6;
/** A code is good for this long after it is sent. */
export const CODE_TTL_MS = 5 * 60_000;
/** Wrong tries a code survives; after that it is worthless even with the right digits. */
export const MAX_CODE_ATTEMPTS = 5;
/** Codes one phone number may request per window, and one address. */
export const THROTTLE = { windowMs: 15 * 60_000, perPhone: 3, perAddress: 20 } as const;

/** Six random digits, leading zeros kept. */
export function newCode(): string {
  return String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
}

/** What is stored: the SHA-256 of the row's id and the code, so equal codes of two rows never hash alike. */
export function hashCode(rowId: string, code: string): string {
  return createHash('sha256').update(`${rowId}:${code}`).digest('hex');
}

/** Whether `code` (as typed: spaces ignored) is the one whose hash was stored, in constant time. */
export function codeMatches(rowId: string, typed: string, storedHash: string): boolean {
  const code = typed.replace(/\s+/g, '');
  if (!new RegExp(`^\\d{${CODE_DIGITS}}$`).test(code)) return false;
  const a = Buffer.from(hashCode(rowId, code));
  const b = Buffer.from(storedHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Seconds until one more request fits in the window, given the times of earlier requests (any order);
 * 0 when it fits now.
 */
export function throttleWaitSeconds(
  times: readonly Date[],
  limit: number,
  windowMs: number,
  now: number,
): number {
  const recent = times
    .map((t) => t.getTime())
    .filter((t) => t > now - windowMs)
    .sort((a, b) => b - a);
  if (recent.length < limit) return 0;
  // The request that must leave the window before another fits.
  const leaving = recent[limit - 1]!;
  return Math.max(1, Math.ceil((leaving + windowMs - now) / 1000));
}

/** The text message carrying a code. */
export function codeMessage(code: string): string {
  return `Your courier sign-in code is ${code}. It expires in ${CODE_TTL_MS / 60_000} minutes. Never share it.`;
}
