import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a link to a proof photo works. */
export const LINK_TTL_SECONDS = 15 * 60;

const SIG = /^[A-Za-z0-9_-]{43}$/;

/** The link's signature: HMAC-SHA256 over the proof id and the expiry (seconds since the epoch). */
export function signLink(key: Buffer, proofId: string, expires: number): string {
  return createHmac('sha256', key)
    .update(`media/proofs\n${proofId}\n${expires}`, 'utf8')
    .digest('base64url');
}

/** The query of a link to `proofId` valid until `expires`. */
export function linkQuery(key: Buffer, proofId: string, expires: number): string {
  return `exp=${expires}&sig=${signLink(key, proofId, expires)}`;
}

/** Whether a link's `exp` and `sig` (as received: anything) are this proof's and still valid at `nowMs`. */
export function linkIsValid(
  key: Buffer,
  proofId: string,
  exp: unknown,
  sig: unknown,
  nowMs: number,
): boolean {
  if (
    typeof exp !== 'string' ||
    !/^\d{1,12}$/.test(exp) ||
    typeof sig !== 'string' ||
    !SIG.test(sig)
  )
    return false;
  const expires = Number(exp);
  if (expires * 1000 <= nowMs) return false;
  const expected = Buffer.from(signLink(key, proofId, expires), 'base64url');
  return timingSafeEqual(expected, Buffer.from(sig, 'base64url'));
}
