import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeBase32(bytes: Uint8Array, length: number): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += CROCKFORD[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/**
 * A ULID (48-bit millisecond time + 80 random bits, Crockford base32): sortable by creation
 * time, which keeps B-tree inserts on the right edge of the index.
 */
export function ulid(now: number = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time + encodeBase32(randomBytes(10), 16);
}

export type IdPrefix = 'ptn' | 'app' | 'key' | 'dlv' | 'sale' | 'prd' | 'var' | 'ven' | 'loc' | 'evt' | 'whd' | 'top' | 'jrn' | 'req' | 'chk';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

/** Random, URL-safe, unguessable token (for API keys, secrets, tracking links). */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
