-- Money rules (issue 26, items 6 and 7).
--
-- A courier cash handover asks for its same-day payout run in its own transaction: the request is a
-- row, so a crash between the handover's commit and the run's start loses nothing. The payouts job
-- runs every request whose next attempt is due (a run is leased by moving that time on) and marks it
-- done with the run it made (or none, when no same-day vendor was owed). One per handover.
create table payout_run_requests (
  handover_id text primary key,
  courier_id text not null,
  handed_over_at timestamptz not null,
  requested_at timestamptz not null,
  -- Null once done; otherwise when the job next tries it (now at first, later after a lease or a failure).
  next_attempt_at timestamptz,
  attempts int not null default 0,
  last_error text,
  done_at timestamptz,
  run_id text,
  check ((done_at is null) = (next_attempt_at is not null))
);
create index payout_run_requests_due_idx on payout_run_requests (next_attempt_at, handover_id) where done_at is null;

-- The transfer fee a payout withheld from its payee (PAYOUT_FEE_BEARER=payee for its kind): its lines
-- less its deductions less this fee is what was sent (amount_pesewas). 0 when the platform bears it.
alter table payouts add column payee_fee_pesewas bigint not null default 0 check (payee_fee_pesewas >= 0);
