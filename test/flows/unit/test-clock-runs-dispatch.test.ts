import { describe, expect, it } from 'vitest';
import { testClockRunsDispatch } from '../../../src/flows/test-clock-runs-dispatch.ts';
import { as, hooks } from '../faces.ts';

describe("a test clock's advance runs dispatch's steps", () => {
  it("registers dispatch's clock steps with the clocks", () => {
    const h = hooks();
    const clockSteps = { nextDue: async () => null, run: async () => {} };
    testClockRunsDispatch.wire(
      as({ testClocks: { onAdvance: h.add('onAdvance') }, dispatch: { clockSteps } }),
    );
    expect(h.on('onAdvance')).toEqual([clockSteps]);
  });

  it('registers nothing where this instance dispatches no orders', () => {
    const h = hooks();
    testClockRunsDispatch.wire(
      as({ testClocks: { onAdvance: h.add('onAdvance') }, dispatch: undefined }),
    );
    expect(h.registered.size).toBe(0);
  });
});
