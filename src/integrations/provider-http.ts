/**
 * What every provider adapter (payments, transfers, SMS, WhatsApp) does the same way over HTTP:
 * one request that never follows a redirect and times out, a failure described without secrets,
 * and JSON answers read without trusting their shape.
 */
export type Json = Record<string, unknown>;

export function asObject(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : null;
}

/** The body as an object, or null when it is not JSON or not an object. */
export function parseObject(text: string): Json | null {
  try {
    return asObject(JSON.parse(text));
  } catch {
    return null;
  }
}

/** A bad configured URL fails as the request does, not while naming its span. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

export interface ProviderRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
}

export interface ProviderAnswer {
  status: number;
  text: string;
  headers: Headers;
}

/**
 * One request to a provider. A redirect is refused: it would carry our credentials somewhere the
 * provider did not document. The timeout covers the body too (a server that sends its headers and
 * then stalls still times out). When no answer comes, `fail` makes the adapter's own error from
 * words that carry no secret: the timeout, or the socket error's code (ECONNREFUSED, ENOTFOUND…).
 */
export async function requestProvider(
  url: string,
  request: ProviderRequest,
  fail: (why: string) => Error,
): Promise<ProviderAnswer> {
  try {
    const res = await fetch(url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'error',
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    return { status: res.status, text: await res.text(), headers: res.headers };
  } catch (err) {
    throw fail(unanswered(err, request.timeoutMs));
  }
}

function unanswered(err: unknown, timeoutMs: number): string {
  const name = err instanceof Error ? err.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  return `network failure${typeof cause?.code === 'string' ? ` (${cause.code})` : ''}`;
}

/** A provider's own words for a log or an error: at most 160 characters, none of our secrets. */
export function providerWords(raw: unknown, secrets: readonly string[]): string {
  if (typeof raw !== 'string' || !raw) return '';
  let text = raw.slice(0, 160);
  for (const secret of secrets) if (secret) text = text.split(secret).join('[redacted]');
  return text;
}
