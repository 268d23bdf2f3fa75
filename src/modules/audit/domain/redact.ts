/** Field names whose values are secrets: never written to the audit log (ids and hints of secrets are kept). */
const SECRET_NAME = /secret|password|passwd|token|api_?key|authorization|hash|otpauth|totp|^code$/i;
const KEPT = /(_id|_hint|_at)$/i;
const MAX_DEPTH = 8;

export const REDACTED = '[redacted]';
const NUL = String.fromCharCode(0);

/** A JSON-safe copy of `value` with every secret-named field replaced by `[redacted]`. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value))
    return depth >= MAX_DEPTH ? REDACTED : value.map((v) => redactSecrets(v, depth + 1));
  if (typeof value === 'object') {
    if (depth >= MAX_DEPTH) return REDACTED;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = SECRET_NAME.test(key) && !KEPT.test(key) ? REDACTED : redactSecrets(v, depth + 1);
    }
    return out;
  }
  if (typeof value === 'string') return value.replaceAll(NUL, '');
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return null;
  return value;
}
