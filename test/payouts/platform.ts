import { afterAll, beforeAll } from 'vitest';
import type { FakeTransfers } from '../fakes/transfers.ts';
import { startPlatform, type TestPlatform } from '../helpers/harness.ts';

/** Starts, for the file, a platform on `clock` paying through `transfers` with no payout runs on an interval; `started` is handed it. */
export function usePayoutsPlatform(
  clock: () => number,
  transfers: FakeTransfers,
  started: (p: TestPlatform) => void,
) {
  let p: TestPlatform | undefined;
  beforeAll(async () => {
    p = await startPlatform({
      socket: false,
      clock,
      transfers,
      env: { PAYOUT_INTERVAL_MS: '0' },
    });
    started(p);
  });
  afterAll(() => p?.close());
}
