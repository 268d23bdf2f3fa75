-- Payout runs at provider speed (issue 26, item 8): a run is started, answered with its id at once,
-- and made and sent by a background worker in batches. The run row carries its progress and the
-- worker's lease, so a crash or another instance resumes it where the last committed batch left it.

-- creating: payouts are being made, batch by batch, in payee order after `payee_cursor`;
-- sending: every payout is made, those without approval are being handed to the provider;
-- done: nothing of the run is left to send (the provider's answers still arrive for pending ones).
alter table payout_runs add column status text not null default 'done' check (status in ('creating', 'sending', 'done'));
alter table payout_runs add column payee_cursor text;
-- The worker holding the run until then; past it, another worker (or instance) takes it over.
alter table payout_runs add column lease_until timestamptz;
alter table payout_runs add column payees_owed int not null default 0;
alter table payout_runs add column without_destination text[] not null default '{}';
alter table payout_runs add column unverified_destination text[] not null default '{}';
alter table payout_runs add column finished_at timestamptz;
-- A handover's same-day run covers only these payees (null: every payee), kept for a worker that resumes it.
alter table payout_runs add column payees text[];
create index payout_runs_open_idx on payout_runs (created_at) where status <> 'done';

-- A run's progress is counted by status over its payouts, and its sends are taken in id order.
create index payouts_run_status_idx on payouts (run_id, status, id);
