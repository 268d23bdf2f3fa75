-- Sandbox test clocks: a staging app's own time, which it moves forward by hand. Orders (and the
-- quotes they redeem) created on a clock live in its time: every time-driven step for them (the
-- sandbox courier's moves, the window check) runs only when the clock advances, at the clock's time,
-- and never by the wall clock.
create table test_clocks (
  id text primary key,
  app_id text not null references apps (id),
  name text not null,
  frozen_time timestamptz not null,
  -- ready; advancing while an advance runs its steps (advancing_to is where it goes).
  status text not null default 'ready' check (status in ('ready', 'advancing')),
  advancing_to timestamptz,
  -- When the advance in progress started: one that ran longer than its lease is taken over.
  advance_started_at timestamptz,
  created_at timestamptz not null,
  deleted_at timestamptz
);
create index test_clocks_app_idx on test_clocks (app_id, created_at) where deleted_at is null;

-- What is attached to a clock. No foreign key: a deleted clock keeps its row (deleted_at), and its
-- objects stay where it left them.
alter table delivery_orders add column test_clock_id text;
alter table delivery_quotes add column test_clock_id text;
-- Dispatch's copy, so the sandbox courier and the window check can tell a clock's jobs from the
-- others' without reading delivery's table.
alter table dispatch_jobs add column test_clock_id text;
create index dispatch_jobs_test_clock_idx on dispatch_jobs (test_clock_id)
  where test_clock_id is not null and state <> 'closed';

-- An event raised on a clock (its created_at in clock time) whose delivery failed waits for its retry
-- in the clock's time: clock_retry_at is when (the previous one plus the schedule's wait), and
-- next_attempt_at stays far ahead until the clock's advance passes it.
alter table outbox_events add column test_clock_id text;
alter table outbox_events add column clock_retry_at timestamptz;
create index outbox_events_clock_retry_idx on outbox_events (test_clock_id, clock_retry_at)
  where test_clock_id is not null and delivery_status = 'pending';
