/** Maps `items` through `fn` with at most `limit` calls in flight; results keep the input order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
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
export function sharedRecent(
  check: () => Promise<void>,
  ttlMs: number,
  clock: () => number = Date.now,
): () => Promise<void> {
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
 * caller's promise settles with its own batch (with the write's result at its index), so a failed
 * write fails exactly its items.
 */
export function batching<T, R = void>(
  write: (items: T[]) => Promise<R[]>,
  max: number,
): (item: T) => Promise<R> {
  return batchingBy(() => '', write, max);
}

/** `batching` with one queue per group (`groupOf`): a group's batches never hold another group's items. */
export function batchingBy<T, R = void>(
  groupOf: (item: T) => string,
  write: (items: T[]) => Promise<R[]>,
  max: number,
): (item: T) => Promise<R> {
  type Waiter = { item: T; resolve: (result: R) => void; reject: (err: unknown) => void };
  // A group is present while it has a write running; its queue holds what waits for the next one.
  const groups = new Map<string, Waiter[]>();
  const drain = async (group: string, queue: Waiter[]) => {
    while (queue.length > 0) {
      const batch = queue.splice(0, max);
      try {
        const results = await write(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(results[i] as R));
      } catch (err) {
        for (const b of batch) b.reject(err ?? new Error('batch write failed'));
      }
    }
    groups.delete(group);
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      const group = groupOf(item);
      const queue = groups.get(group);
      if (queue) return void queue.push({ item, resolve, reject });
      const fresh: Waiter[] = [{ item, resolve, reject }];
      groups.set(group, fresh);
      void drain(group, fresh);
    });
}
