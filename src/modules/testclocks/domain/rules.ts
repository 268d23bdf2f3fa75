import { errors } from '../../../platform/errors.ts';

const DAY_MS = 86_400_000;
/** The longest single advance (Stripe's test clocks keep theirs to about two intervals; ours to 60 days). */
export const MAX_ADVANCE_MS = 60 * DAY_MS;
/** How far from today a clock may start: a year either side is room for any scenario. */
export const FROZEN_RANGE_MS = 365 * DAY_MS;
/** Clocks an app may keep at once (deleting one frees its place). */
export const MAX_CLOCKS_PER_APP = 100;
/** Steps one advance may take; each runs every due step of the clock's objects at one moment. */
export const MAX_STEPS_PER_ADVANCE = 5_000;

/** A clock's starting time: within a year of now. */
export function checkFrozenTime(frozen: Date, now: number): void {
  if (Math.abs(frozen.getTime() - now) > FROZEN_RANGE_MS)
    throw errors.testClockTimeOutOfRange(
      'frozen_time must be within 365 days of today; pick a time closer to now.',
      [{ field: 'frozen_time', issue: 'must be within 365 days of today' }],
    );
}

/** Where an advance may go: later than the clock's time, by at most 60 days. */
export function checkAdvance(from: Date, to: Date): void {
  if (to.getTime() <= from.getTime())
    throw errors.testClockBackwards(
      `frozen_time must be after the clock's time, ${from.toISOString()}: a clock only moves forward.`,
      [{ field: 'frozen_time', issue: "must be after the clock's current frozen_time" }],
    );
  if (to.getTime() - from.getTime() > MAX_ADVANCE_MS)
    throw errors.testClockAdvanceTooFar(
      'A clock advances at most 60 days at a time; advance in several steps.',
      [{ field: 'frozen_time', issue: "must be at most 60 days after the clock's frozen_time" }],
    );
}

/**
 * The next moment an advance stops at: the earliest time something is due after `now`, when it
 * comes by `to`; undefined when nothing more is due by then (the clock then goes straight to `to`).
 * A due time at or before `now` was run at `now` already (it waits for a later step), so it is not
 * a reason to stop again.
 */
export function nextStop(now: Date, to: Date, dues: readonly (Date | null)[]): Date | undefined {
  let next: number | undefined;
  for (const due of dues) {
    const t = due?.getTime();
    if (t === undefined || t <= now.getTime() || t > to.getTime()) continue;
    if (next === undefined || t < next) next = t;
  }
  return next === undefined ? undefined : new Date(next);
}
