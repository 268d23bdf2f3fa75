import type { PartnerClient } from '@partner-platform/sdk';
import { createPartner, startPlatform, type TestPlatform } from '../helpers/harness.ts';
import { Receiver } from '../webhooks/receiver.ts';

export type ClockedPartner = { p: TestPlatform; rx: Receiver; client: PartnerClient };

/** Starts a webhook receiver and a platform running on `clock` with the webhook dispatcher on, and a staging partner app (all scopes) whose webhooks go to the receiver. */
export async function startClockedPartner(
  clock: () => number,
  env: Record<string, string> = {},
): Promise<ClockedPartner> {
  const rx = await new Receiver().start();
  const p = await startPlatform({
    socket: false,
    clock,
    env: {
      WEBHOOK_DISPATCHER: 'on',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_LOCAL_DESTINATIONS: 'on',
      ...env,
      // Retries 10 minutes, then an hour, after a failure (in the clock's time for a clock's events).
      WEBHOOK_RETRY_SCHEDULE: '600,3600',
    },
  });
  const { client } = await createPartner(p, { webhookUrl: `${rx.url}/hooks`, now: clock });
  return { p, rx, client };
}
