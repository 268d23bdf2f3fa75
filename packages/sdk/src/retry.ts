/**
 * How an operation may be retried:
 * - `idempotent`: reads and operations the platform makes idempotent (topup.verify, safe orders.verify):
 *   network errors, timeouts, 429 and 5xx.
 * - `create`: creates keyed by the caller's reference (the reference makes a repeat harmless): as
 *   `idempotent`, and the caller resolves a duplicate-reference answer that follows an attempt which
 *   may have landed.
 * - `unsafe`: everything else (cancel, topup.initiate): only failures that prove nothing ran, i.e. a
 *   connection that was never made, 429 (answered before the body is read) and 503
 *   `SERVICE_UNAVAILABLE` (D2: nothing was changed).
 * - `none`: one attempt.
 */
export type RetryMode = 'idempotent' | 'create' | 'unsafe' | 'none';

export interface RetryVerdict {
  retry: boolean;
  /** The failed attempt may still have changed something (so a later duplicate may be our own). */
  mayHaveLanded: boolean;
}

/** Decides on an HTTP answer: the platform's `code` where it gives one, the status otherwise. */
export function classifyAnswer(
  status: number,
  code: string | undefined,
  mode: RetryMode,
): RetryVerdict {
  if (mode === 'none') return { retry: false, mayHaveLanded: false };
  // Both are answered before anything is written.
  if (status === 429 || (status === 503 && code === 'SERVICE_UNAVAILABLE'))
    return { retry: true, mayHaveLanded: false };
  if (status < 500 || mode === 'unsafe') return { retry: false, mayHaveLanded: false };
  // D2/D8: a gateway failure charged nothing and released the reference.
  if (status === 502 && code === 'GATEWAY_ERROR') return { retry: true, mayHaveLanded: false };
  return { retry: true, mayHaveLanded: true };
}

const UNSENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** True when fetch failed before the request could reach a server (so even an unsafe call may be repeated). */
export function neverSent(err: unknown): boolean {
  // PartnerNetworkError → fetch's TypeError → the socket error carrying the code.
  let node = err as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  for (let depth = 0; node && depth < 5; depth++) {
    if (typeof node.code === 'string') return UNSENT_CODES.has(node.code);
    // Happy eyeballs reports one error per address tried.
    node = (node.cause ?? node.errors?.[0]) as typeof node;
  }
  return false;
}

/** Exponential backoff with "equal jitter": half fixed, half random, so clients spread out. */
export function backoffMs(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
