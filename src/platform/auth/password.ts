import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords of people (partner members, operators), hashed with scrypt: memory-hard, in Node's own
 * crypto (no native addon to build). Stored as `scrypt$N$r$p$salt$hash` (base64url), so the cost can
 * rise later: `needsRehash` tells a sign-in to store the password again at today's cost.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
// N·r·128 bytes is what scrypt needs; Node refuses above maxmem (32 MiB by default).
const MAX_MEMORY = 64 * 1024 * 1024;

/** The shortest and longest password accepted (long passphrases welcome; the cap bounds the hashing work). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

function derive(
  password: string,
  salt: Buffer,
  cost: { N: number; r: number; p: number },
): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: MAX_MEMORY };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return [
    'scrypt',
    COST.N,
    COST.r,
    COST.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

function parse(
  stored: string,
): { cost: { N: number; r: number; p: number }; salt: Buffer; key: Buffer } | undefined {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return undefined;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every((v) => Number.isSafeInteger(v) && v > 0)) return undefined;
  return { cost, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
}

/** Whether `password` is the one hashed into `stored`; false (never an exception) for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || password.length > PASSWORD_MAX_LENGTH) return false;
  const key = await derive(password, parsed.salt, parsed.cost);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** A hash made at a lower cost than today's: store the password again after a successful sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.cost.N < COST.N || parsed.cost.r < COST.r || parsed.cost.p < COST.p;
}

/**
 * A hash of no one's password, verified against when the account does not exist, so that a
 * sign-in for an unknown email costs the same time as one for a known email.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('base64url'));
  return decoy;
}
