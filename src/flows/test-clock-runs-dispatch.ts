import type { DispatchModule } from '../modules/dispatch/index.ts';
import type { TestClocksService } from '../modules/testclocks/index.ts';
import { defineFlow } from '../platform/module.ts';

/**
 * A sandbox test clock's advance runs dispatch's time-driven steps for the clock's jobs (the
 * sandbox courier's offers and moves, the window check), at each moment they fall due, at the
 * clock's time. The clock knows nothing of dispatch; dispatch knows nothing of clocks but their ids.
 */
export const testClockRunsDispatch = defineFlow({
  name: "a test clock's advance runs dispatch's steps",
  wire: ({
    testClocks,
    dispatch,
  }: {
    testClocks: TestClocksService | undefined;
    dispatch: DispatchModule | undefined;
  }) => {
    if (testClocks && dispatch) testClocks.onAdvance(dispatch.clockSteps);
  },
});
