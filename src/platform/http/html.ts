/** Escapes text for HTML content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
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

/** What every public page shares: sizing that fits a phone, the system font, a visible keyboard focus. */
const BASE_STYLE = `*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;overflow-wrap:break-word}
:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}`;

export interface PageParts {
  /** Plain text; escaped here. */
  title: string;
  /** The page's own CSS, after the shared rules. */
  style: string;
  /** Trusted markup: whoever builds it escapes what it interpolates. */
  body: string;
  /** Extra trusted tags for the head (a refresh, robots). */
  head?: string;
  /**
   * Stylesheet and script URLs of this origin, for a page under a strict CSP (no inline code): then
   * `style` is not inlined, and the page serves `pageStylesheet(style)` as one of `css` instead.
   */
  files?: { css: readonly string[]; js: readonly string[] };
}

/** A page's whole CSS (the shared rules, then its own), for a page that loads it as a file. */
export function pageStylesheet(style: string): string {
  return `${BASE_STYLE}\n${style}\n`;
}

/** A whole public page sized for phones: inline CSS and nothing loaded, or its own files only. */
export function htmlPage(parts: PageParts): string {
  const files = parts.files;
  const styles = files
    ? [
        ...files.css.map((u) => `<link rel="stylesheet" href="${escapeHtml(u)}">`),
        ...files.js.map((u) => `<script src="${escapeHtml(u)}" defer></script>`),
      ].join('')
    : `<style>${BASE_STYLE}\n${parts.style}</style>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${parts.head ?? ''}
<title>${escapeHtml(parts.title)}</title>${styles}</head>
<body>${parts.body}</body></html>`;
}
