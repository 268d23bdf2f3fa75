import type { TestClocksService } from '../modules/testclocks/index.ts';
import type { ClockRetries } from '../modules/webhooks/index.ts';
import { defineFlow } from '../platform/module.ts';

/**
 * A sandbox test clock's advance retries its failed webhook deliveries in the clock's time: each
 * is sent again once the clock reaches its retry time (after dispatch's steps at the same moment).
 * Its deletion hands its pending deliveries back to real-time retries.
 */
export const testClockRetriesWebhooks = defineFlow({
  name: "a test clock's advance retries its webhooks",
  wire: ({
    testClocks,
    webhookClockRetries,
  }: {
    testClocks: TestClocksService | undefined;
    webhookClockRetries: ClockRetries;
  }) => {
    if (!testClocks) return;
    testClocks.onAdvance(webhookClockRetries);
    testClocks.onDelete(webhookClockRetries);
  },
});
