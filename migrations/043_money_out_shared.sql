-- Money out, second pass (issue 26): the columns its parts share.

-- A destination's version: each replacement raises it, and a payout records the version it was
-- created for, so that a payout is never sent to a destination that has since been replaced.
alter table payout_destinations add column version int not null default 1;
-- Whether the provider confirmed that the destination belongs to the payee; payouts go only to
-- verified destinations. Rows written before this column keep being paid as they were.
alter table payout_destinations add column verification text not null default 'verified'
  check (verification in ('unverified', 'verified', 'needs_review'));
-- The provider's recipient for this destination (Paystack's recipient_code), once registered.
alter table payout_destinations add column recipient_code text;

alter table payouts add column destination_version int;
update payouts set destination_version = 1;

-- A payout cancelled before it was sent (its destination was replaced): its lines are owed again.
alter table payouts drop constraint payouts_status_check;
alter table payouts add constraint payouts_status_check
  check (status in ('awaiting_approval', 'created', 'sending', 'pending', 'paid', 'failed', 'reversed', 'rejected', 'cancelled'));
