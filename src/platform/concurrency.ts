/** Maps `items` through `fn` with at most `limit` calls in flight; results keep the input order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Wraps a check so that concurrent callers share one run and a success is trusted for `ttlMs`
 * (failures are not remembered: the next caller checks again). Health answers stay cheap under load.
 */
export function sharedRecent(check: () => Promise<void>, ttlMs: number, clock: () => number = Date.now): () => Promise<void> {
  let okUntil = -Infinity;
  let running: Promise<void> | undefined;
  return () => {
    if (clock() < okUntil) return Promise.resolve();
    running ??= check()
      .then(() => void (okUntil = clock() + ttlMs))
      .finally(() => (running = undefined));
    return running;
  };
}
