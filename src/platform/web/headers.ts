/**
 * The content security policy of the server-rendered web pages: scripts, styles and images only from
 * this origin (no inline code), forms post here only, never framed, no <base> tricks.
 */
export const WEB_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; connect-src 'self'";

/** Headers of every web page; pages behind a sign-in (or carrying a token) are never stored. */
export function webPageHeaders(): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': WEB_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
  };
}
