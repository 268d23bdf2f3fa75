/** Reading gateways' JSON answers without trusting their shape. */
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

/** A bad configured URL fails as the request does (a GatewayError), not while naming its span. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
