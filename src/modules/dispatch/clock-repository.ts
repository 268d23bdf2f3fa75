import type { Queryable } from '../../platform/db/index.ts';

/** When each kind of dispatch step next falls due for one test clock's jobs. */
export interface ClockDues {
  /** The earliest due time of a job still waiting for the sandbox courier's offer. */
  waiting_due: Date | null;
  /** The earliest last move of a job the sandbox courier holds (it moves a step after). */
  held_since: Date | null;
  /** The earliest moment an unassigned, unflagged job will miss its window. */
  miss_at: Date | null;
  /**
   * The earliest open offer of the clock's jobs: the sandbox courier accepts in the same step it is
   * offered, so one still open was cut short (a process that died); it is accepted at its own time.
   */
  open_offer: Date | null;
}

export const clockRepository = {
  async dues(q: Queryable, clockId: string): Promise<ClockDues> {
    return (
      await q.query<ClockDues>(
        `select
           (select min(due_at) from dispatch_jobs where test_clock_id = $1 and state = 'waiting') as waiting_due,
           (select min(a.updated_at) from dispatch_assignments a join dispatch_jobs j on j.order_id = a.order_id
             where j.test_clock_id = $1 and j.state <> 'closed' and a.ended_at is null) as held_since,
           (select min(miss_at) from dispatch_jobs where test_clock_id = $1 and miss_at is not null
             and window_missed_at is null and state in ('waiting', 'offered')) as miss_at,
           (select min(o.offered_at) from dispatch_offers o join dispatch_jobs j on j.order_id = o.order_id
             where j.test_clock_id = $1 and j.state = 'offered' and o.state = 'open') as open_offer`,
        [clockId],
      )
    )[0]!;
  },
};
