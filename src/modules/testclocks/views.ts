import type { TestClockRow } from './repository.ts';

/** A test clock as the partner API shows it. */
export function clockView(clock: TestClockRow) {
  return {
    id: clock.id,
    object: 'test_clock' as const,
    name: clock.name,
    frozen_time: clock.frozen_time.toISOString(),
    status: clock.status,
    created_at: clock.created_at.toISOString(),
  };
}
