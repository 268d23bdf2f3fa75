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

/**
 * Turns single writes into batches without a timer: the first item is written at once; items that
 * arrive while a write runs wait and go together in the next one (at most `max` per write). Each
 * caller's promise settles with its own batch, so a failed write fails exactly its items.
 */
export function batching<T>(write: (items: T[]) => Promise<void>, max: number): (item: T) => Promise<void> {
  const queue: Array<{ item: T; done: (err?: unknown) => void }> = [];
  let writing = false;
  const drain = async () => {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, max);
      const outcome = await write(batch.map((b) => b.item)).then(
        () => undefined,
        (err: unknown) => err ?? new Error('batch write failed'),
      );
      for (const b of batch) b.done(outcome);
    }
    writing = false;
  };
  return (item) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ item, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!writing) void drain();
    });
}
