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

// Random bytes (CSPRNG) are drawn from a pool refilled in large blocks, each byte handed out once:
// one syscall per ~400 ids or ~200 tokens, not one per call on the hot path.
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let poolOffset = 0;

function pooledRandom(n: number): Buffer {
  if (poolOffset + n > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  poolOffset += n;
  return pool.subarray(poolOffset - n, poolOffset);
}

function timePart(now: number): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}

/**
 * A ULID (48-bit millisecond time + 80 random bits, Crockford base32): sortable by creation
 * time, which keeps B-tree inserts on the right edge of the index.
 */
export function ulid(now: number = Date.now()): string {
  return timePart(now) + encodeBase32(pooledRandom(10), 16);
}

// The last sequential id's millisecond and random part (newSequentialId).
let lastTime = -1;
const lastRandom = Buffer.alloc(10);

/** Adds one to a big-endian number in place; false when it wrapped round to zero. */
function increment(bytes: Buffer): boolean {
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i] !== 0xff) {
      bytes[i]! += 1;
      return true;
    }
    bytes[i] = 0;
  }
  return false;
}

export type IdPrefix =
  | 'ptn'
  | 'app'
  | 'key'
  | 'dlv'
  | 'sale'
  | 'prd'
  | 'var'
  | 'ven'
  | 'loc'
  | 'evt'
  | 'whd'
  | 'top'
  | 'jrn'
  | 'req'
  | 'chk'
  | 'opr'
  | 'otk'
  | 'aud'
  | 'act'
  | 'mbr'
  | 'mail'
  | 'cou'
  | 'prf'
  | 'sms'
  | 'csc'
  | 'ofr'
  | 'asg'
  | 'cho'
  | 'pout'
  | 'prun'
  | 'srf'
  | 'rec'
  | 'pdc'
  | 'quo'
  | 'clk'
  | 'cpr'
  | 'cpe'
  | 'rmsg';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

/**
 * An id made at `now` that sorts after every one this process made before it in that millisecond:
 * ULID's monotonic mode (the previous id's random part plus one). Its successor can be guessed, so
 * only for records listed in id order within a millisecond whose ids grant nothing (audit entries).
 */
export function newSequentialId(prefix: IdPrefix, now: number): string {
  if (now !== lastTime || !increment(lastRandom)) {
    lastTime = now;
    pooledRandom(10).copy(lastRandom);
  }
  return `${prefix}_${timePart(now)}${encodeBase32(lastRandom, 16)}`;
}

/** Random, URL-safe, unguessable token (for API keys, secrets, tracking links). */
export function randomToken(bytes = 24): string {
  return pooledRandom(bytes).toString('base64url');
}

// The letters ulid() writes, loosely (any capital): the same set every id check has accepted so far.
const ULID_BODY = /^[0-9A-Z]{26}$/;

/** An id of ours with that prefix (what `newId(prefix)` makes): the one check every page and route uses. */
export function isId(prefix: IdPrefix, value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length === prefix.length + 27 &&
    value.startsWith(`${prefix}_`) &&
    ULID_BODY.test(value.slice(prefix.length + 1))
  );
}
