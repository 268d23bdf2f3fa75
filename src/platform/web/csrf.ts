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
 * Whether a state-changing request comes from our own pages, as the browser tells: `Sec-Fetch-Site`
 * must be same-origin (or none: typed or bookmarked), and an `Origin` must be ours. Our pages send no
 * referrer, so browsers send `Origin: null` on their own form posts: null passes only when
 * Sec-Fetch-Site vouches for it. A request with neither header (old browsers, tests) still needs its token.
 */
export function crossSiteProblem(
  headers: { origin?: string | undefined; 'sec-fetch-site'?: string | undefined },
  publicOrigin: string,
): string | undefined {
  const site = headers['sec-fetch-site'];
  if (site && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site is ${site}`;
  const origin = headers.origin;
  if (origin === undefined || origin === publicOrigin) return undefined;
  if (origin === 'null' && site === 'same-origin') return undefined;
  return `Origin ${origin} is not ${publicOrigin}`;
}
