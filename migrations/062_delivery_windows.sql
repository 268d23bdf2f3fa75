-- Delivery windows (orders.create's pickup_ready_at and dropoff_deadline): kept with the order, and
-- copied onto its dispatch job, which is offered only from due_at (pickup_ready_at less the lead time,
-- or the placement itself) and flagged once when it will miss its deadline.
alter table delivery_orders add column pickup_ready_at timestamptz;
alter table delivery_orders add column dropoff_deadline timestamptz;

-- When the job may first be offered: the placement for an order without a window (so every existing
-- job is due since it was created, and keeps being offered and marked late as before).
alter table dispatch_jobs add column due_at timestamptz;
update dispatch_jobs set due_at = created_at;
alter table dispatch_jobs alter column due_at set not null;
alter table dispatch_jobs add column dropoff_deadline timestamptz;
-- The last moment a courier may still take the job and reach the drop-off by the deadline
-- (the deadline less the expected pickup-to-drop-off travel time).
alter table dispatch_jobs add column miss_at timestamptz;
-- Set once, with the delivery.order.late event in the same transaction, when the job will miss its window.
alter table dispatch_jobs add column window_missed_at timestamptz;

-- The dispatcher's round reads the jobs due now, and the late check those due before its cut-off,
-- from this index (a job scheduled for next week is never read before its time).
create index dispatch_jobs_due_idx on dispatch_jobs (due_at) where state in ('waiting', 'offered');
-- The window check reads only unassigned jobs with a deadline not yet flagged whose cut-off has come.
create index dispatch_jobs_miss_idx on dispatch_jobs (miss_at)
  where miss_at is not null and window_missed_at is null and state in ('waiting', 'offered');
