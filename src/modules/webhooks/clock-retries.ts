import type { Db } from '../../platform/db/index.ts';
import { eventsWritten } from './outbox.ts';
import { CLOCK_PARKED } from './repository.ts';

/**
 * Webhook retries of a sandbox test clock's events, in the clock's time: a delivery that failed is
 * parked until the clock's advance reaches its retry time (the schedule's wait after the previous
 * one, without jitter), then handed back to the dispatcher, which sends it at once in real time.
 */
export class ClockRetries {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  /** The earliest retry time of the clock's parked deliveries (null: none). */
  async nextDue(clockId: string): Promise<Date | null> {
    const [row] = await this.db.query<{ due: Date | null }>(
      `select min(clock_retry_at) as due from outbox_events
        where test_clock_id = $1 and delivery_status = 'pending' and next_attempt_at = ${CLOCK_PARKED}`,
      [clockId],
    );
    return row?.due ? new Date(row.due) : null;
  }

  /**
   * The clock is deleted: its pending deliveries go back to real-time retries (no advance would
   * hand them over again), the parked ones at once.
   */
  async end(clockId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const freed = await tx.query(
        `update outbox_events set test_clock_id = null,
                next_attempt_at = case when next_attempt_at = ${CLOCK_PARKED} then now() else next_attempt_at end
          where test_clock_id = $1 and delivery_status = 'pending' returning id`,
        [clockId],
      );
      if (freed.length > 0) eventsWritten(tx);
    });
  }

  /** Hands the deliveries whose retry time the clock has reached (its time: the advance's) to the dispatcher. */
  async run(clockId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const due = await tx.query(
        `update outbox_events set next_attempt_at = now()
          where test_clock_id = $1 and delivery_status = 'pending' and next_attempt_at = ${CLOCK_PARKED}
            and clock_retry_at <= $2 returning id`,
        [clockId, new Date(this.clock())],
      );
      if (due.length > 0) eventsWritten(tx);
    });
  }
}
