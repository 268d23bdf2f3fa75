import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A time that holds for one piece of work and whatever it calls (a sandbox test clock's advance, an
 * order created on that clock): inside `atClockTime(ms, work)`, the injected `clock()` of every
 * service answers `ms`; everywhere else, and in work started elsewhere, it answers its own time. No
 * shared mutable clock: the time belongs to the call, and a concurrent request never sees it.
 */
const scope = new AsyncLocalStorage<{ ms: number; clockId: string | undefined }>();

/** Runs `work` with every scoped clock answering `ms` (the time of test clock `clockId`, when named). */
export function atClockTime<T>(ms: number, work: () => Promise<T>, clockId?: string): Promise<T> {
  return scope.run({ ms, clockId }, work);
}

/** The time `atClockTime` set for the work in progress, if any. */
export function scopedTime(): number | undefined {
  return scope.getStore()?.ms;
}

/** The test clock whose time the work in progress runs at, if any (what its webhook events are kept under). */
export function scopedClockId(): string | undefined {
  return scope.getStore()?.clockId;
}

/** A clock that answers the scoped time inside `atClockTime`, else `base`. */
export function scopedClock(base: () => number): () => number {
  return () => scope.getStore()?.ms ?? base();
}
