-- Money out, second pass (issue 26): a payout pays the destination current when it is sent,
-- destinations verified with the provider before money goes, and a recovery that never starves.

-- A payout cancelled because its payee's destination was replaced names the payout that replaced it
-- (same money, same run, the new destination, a new reference).
alter table payouts add column replaced_by text references payouts (id);
-- The replacement belongs to the cancelled payout's run: one live payout per payee and run.
alter table payouts drop constraint payouts_run_id_payee_key;
create unique index payouts_run_payee_idx on payouts (run_id, payee) where status <> 'cancelled';

-- When the payouts job next looks at a payout whose fate is open (created and not yet sent, sending,
-- pending at the provider), and how often it looked since its last state change (the backoff).
-- Null for every other state. The job takes the due ones in this order, a bounded batch at a time.
alter table payouts add column next_check_at timestamptz;
alter table payouts add column checks int not null default 0;
update payouts set next_check_at = coalesce(sending_since, updated_at) where status in ('created', 'sending', 'pending');
drop index payouts_open_idx;
create index payouts_next_check_idx on payouts (status, next_check_at, id) where next_check_at is not null;

-- The operators who set a destination (the proposer and the approver of the change; none when a
-- partner's member set it): none of them may accept it when the provider's check needs review.
alter table payout_destinations add column set_by text[] not null default '{}';
-- Why a destination needs review (the provider's name differs, or it could not resolve the account),
-- and who accepted it after review.
alter table payout_destinations add column review_reason text;
alter table payout_destinations add column reviewed_by text;
-- Destinations saved before verification existed were never checked by the provider against the
-- payee's name (the issue found mismatching and unresolvable ones paid): the payouts job verifies
-- each of them before its next payout, as it does every new destination.
update payout_destinations set verification = 'unverified', recipient_code = null;
create index payout_destinations_unverified_idx on payout_destinations (changed_at) where verification = 'unverified';
