/** Escapes text for HTML content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Headers for the server-rendered public pages: no script and nothing loaded from anywhere (inline
 * styles only), no referrer (some URLs carry a secret token), no caching. `formAction` allows the
 * page's own forms (the sandbox checkout's buttons).
 */
export function pageHeaders(opts: { formAction?: 'self' } = {}): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action ${opts.formAction === 'self' ? "'self'" : "'none'"}; frame-ancestors 'none'`,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
}
