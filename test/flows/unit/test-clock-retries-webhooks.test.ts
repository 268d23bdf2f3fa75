import { describe, expect, it } from 'vitest';
import { testClockRetriesWebhooks } from '../../../src/flows/test-clock-retries-webhooks.ts';
import { as, hooks } from '../faces.ts';

describe("a test clock's advance retries its webhooks", () => {
  it("registers webhooks' clock retries with the clocks, for advances and deletion", () => {
    const h = hooks();
    const webhookClockRetries = {
      nextDue: async () => null,
      run: async () => {},
      end: async () => {},
    };
    testClockRetriesWebhooks.wire(
      as({
        testClocks: { onAdvance: h.add('onAdvance'), onDelete: h.add('onDelete') },
        webhookClockRetries,
      }),
    );
    expect(h.on('onAdvance')).toEqual([webhookClockRetries]);
    expect(h.on('onDelete')).toEqual([webhookClockRetries]);
  });

  it('registers nothing where no clocks are served', () => {
    const h = hooks();
    testClockRetriesWebhooks.wire(
      as({ testClocks: undefined, webhookClockRetries: { nextDue: async () => null } }),
    );
    expect(h.registered.size).toBe(0);
  });
});
