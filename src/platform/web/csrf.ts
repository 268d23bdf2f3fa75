import { timingSafeEqual } from 'node:crypto';

/** The hidden field every state-changing form carries. */
export const CSRF_FIELD = '_csrf';

/** Constant-time comparison of the submitted token with the expected one. */
export function tokensMatch(submitted: string | undefined, expected: string | undefined): boolean {
  if (!submitted || !expected) return false;
  const a = Buffer.from(submitted);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether a state-changing request comes from our own pages: a browser says where a request comes
 * from in `Sec-Fetch-Site` and `Origin`; either naming another site refuses it. A request with
 * neither (old browsers, tests) still needs its token.
 */
export function crossSiteProblem(headers: { origin?: string | undefined; 'sec-fetch-site'?: string | undefined }, publicOrigin: string): string | undefined {
  const site = headers['sec-fetch-site'];
  if (site && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site is ${site}`;
  const origin = headers.origin;
  if (origin !== undefined && origin !== publicOrigin) return `Origin ${origin} is not ${publicOrigin}`;
  return undefined;
}
