import { createHmac, randomBytes } from 'node:crypto';
import { constantTimeEqual } from '../secrets.ts';

/**
 * Time-based one-time passwords (RFC 6238): HMAC-SHA-1, 6 digits, 30 s steps, the previous and next
 * step accepted for clock drift. Secrets are RFC 4648 base32 (what authenticator apps read).
 * A caller stores the step of the last accepted code and passes it back, so a code is used once.
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one. */
export const TOTP_WINDOW = 1;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (case, spaces and `=` padding ignored); undefined for any other character. */
export function base32Decode(text: string): Buffer | undefined {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const ch of clean) {
    const value = BASE32.indexOf(ch);
    if (value < 0) return undefined;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (160 bits, the HMAC-SHA-1 block RFC 4226 recommends), base32. */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The step a moment falls in. */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS);
}

/** The code of one step (RFC 4226 dynamic truncation); `digits` and the hash only vary for the RFC vectors. */
export function totpCode(
  key: Buffer,
  step: number,
  digits = TOTP_DIGITS,
  algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1',
): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac(algorithm, key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

/**
 * The step `code` belongs to, within the window around `nowMs`, if it is later than `lastStep` (the step
 * of the last code accepted for this secret); undefined otherwise (wrong, expired, or replayed).
 */
export function verifyTotp(
  secret: string,
  code: string,
  nowMs: number,
  lastStep: number | null = null,
): number | undefined {
  const key = base32Decode(secret);
  if (!key || key.length === 0 || !/^\d{6}$/.test(code)) return undefined;
  const current = totpStep(nowMs);
  let matched: number | undefined;
  // Every candidate is computed and compared, so the time taken does not say which step matched.
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    if (constantTimeEqual(totpCode(key, step), code) && matched === undefined) matched = step;
  }
  if (matched === undefined || (lastStep !== null && matched <= lastStep)) return undefined;
  return matched;
}

/** The `otpauth://` URI authenticator apps scan (as a QR code) to add the account. */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
