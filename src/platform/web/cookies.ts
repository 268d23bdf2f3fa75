/** Reads one cookie from a Cookie header; undefined when absent or not a plain token. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    // Our cookies are base64url; anything else was not set by us.
    return /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : undefined;
  }
  return undefined;
}

export interface CookieOptions {
  secure: boolean;
  /** Seconds; 0 deletes the cookie. Omitted: a browser-session cookie. */
  maxAge?: number;
}

/** A Set-Cookie value: never readable by scripts, sent on top-level navigations only (Lax), whole site. */
export function serializeCookie(name: string, value: string, opts: CookieOptions): string {
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (opts.maxAge !== undefined) parts.push(`Max-Age=${opts.maxAge}`);
  if (opts.secure) parts.push('Secure');
  return parts.join('; ');
}
