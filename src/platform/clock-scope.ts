import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A time that holds for one piece of work and whatever it calls (a sandbox test clock's advance, an
 * order created on that clock): inside `atClockTime(ms, work)`, the injected `clock()` of every
 * service answers `ms`; everywhere else, and in work started elsewhere, it answers its own time. No
 * shared mutable clock: the time belongs to the call, and a concurrent request never sees it.
 */
const scope = new AsyncLocalStorage<number>();

/** Runs `work` with every scoped clock answering `ms`. */
export function atClockTime<T>(ms: number, work: () => Promise<T>): Promise<T> {
  return scope.run(ms, work);
}

/** The time `atClockTime` set for the work in progress, if any. */
export function scopedTime(): number | undefined {
  return scope.getStore();
}

/** A clock that answers the scoped time inside `atClockTime`, else `base`. */
export function scopedClock(base: () => number): () => number {
  return () => scope.getStore() ?? base();
}
